import { createHash, randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openFromSidebar, test } from './fixtures';

/**
 * Firmware versions (§2 /upgrade/version): upload an image through the page (progress, then its
 * size and SHA-256), see the version listed with them, edit its name, delete it after confirming.
 */

const axeViolations = async (page: Page, selector: string) => {
  const axe = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

test.describe('firmware versions', () => {
  test('upload a version, see its size and SHA-256, rename it, delete it', async ({ page, session: _session }) => {
    test.setTimeout(120_000);
    const run = Date.now().toString(36).toUpperCase();
    const name = `BMU main board ${run}`;
    const image = randomBytes(20_000);
    const sha256 = createHash('sha256').update(image).digest('hex');

    await page.goto('/dashboard');
    await openFromSidebar(page, 'Upgrades', 'Versions');
    await expect(page).toHaveURL(/\/upgrade\/version/);
    const table = page.getByTestId('table-versions');
    await expect(table).toBeVisible();
    expect(await axeViolations(page, '[data-testid="version-list-page"]')).toEqual([]);

    // ------------------------------------------------------------ add, with the upload
    await page.getByTestId('btn-add').click();
    const modal = page.getByTestId('version-form');
    await expect(modal).toBeVisible();
    // Nothing filled: the required fields say so, and no image is refused before sending.
    await page.getByTestId('version-submit').click();
    await expect(modal.getByText('Please enter the name')).toBeVisible();
    await expect(modal.getByText('Please enter the software version')).toBeVisible();

    await modal.getByTestId('field-name').fill(name);
    await modal.getByTestId('field-softwareVersion').fill('1.4.3');
    await modal.getByTestId('field-manufacturer').fill('Acme');
    await modal.getByTestId('field-module').fill('BMS');
    await page.getByTestId('version-submit').click();
    await expect(page.getByTestId('upload-error')).toContainText('Please upload the firmware image');

    await modal.getByTestId('firmware-upload').locator('input[type=file]').setInputFiles({
      name: 'bmu-1.4.3.bin',
      mimeType: 'application/octet-stream',
      buffer: image,
    });
    await expect(page.getByTestId('uploaded-file')).toContainText('bmu-1.4.3.bin (19.5 KB)');
    await expect(page.getByTestId('uploaded-file')).toContainText(sha256.slice(0, 12));
    await expect(page.getByTestId('upload-progress')).toHaveAttribute('aria-valuenow', '100');
    expect(await axeViolations(page, '[data-testid="version-modal"]')).toEqual([]);
    await page.getByTestId('version-submit').click();
    await expect(page.getByText(`Version ${name} created`)).toBeVisible();
    await expect(modal).toBeHidden();

    // ------------------------------------------------------------ listed with its image
    const row = table.locator('tr.ant-table-row', { hasText: name });
    await expect(row).toContainText('1.4.3');
    await expect(row).toContainText('bmu-1.4.3.bin');
    await expect(row).toContainText('19.5 KB');
    await expect(row).toContainText(sha256.slice(0, 12));
    await expect(row).toContainText('Any device');
    // The free-text filter finds it by its software version.
    await page.getByTestId('filter-q').fill(name);
    await page.getByTestId('filter-search').click();
    await expect(table.locator('tr.ant-table-row')).toHaveCount(1);

    // ------------------------------------------------------------ edit: a new name, same image
    await row.getByRole('button', { name: 'Edit' }).click();
    await expect(modal).toBeVisible();
    await expect(page.getByTestId('current-file')).toContainText('bmu-1.4.3.bin');
    const renamed = `${name} rev B`;
    await modal.getByTestId('field-name').fill(renamed);
    await page.getByTestId('version-submit').click();
    await expect(page.getByText(`Version ${renamed} updated`)).toBeVisible();
    await page.getByTestId('filter-q').fill(renamed);
    await page.getByTestId('filter-search').click();
    const renamedRow = table.locator('tr.ant-table-row', { hasText: renamed });
    await expect(renamedRow).toContainText(sha256.slice(0, 12));

    // ------------------------------------------------------------ delete, after confirming
    await renamedRow.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Delete this version?')).toBeVisible();
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByText(`Version ${renamed} deleted`)).toBeVisible();
    await expect(table.locator('tr.ant-table-row', { hasText: renamed })).toHaveCount(0);
  });
});
