/**
 * External devices (issue #36, /upgrade/external): registered in bulk through the page with
 * their credentials shown once (and as a CSV), a device checking in over HTTP with one of them,
 * its reported version, check-in and log in the page, a delete with its confirmation. No firmware
 * version can be made from here yet (the versions API is another part of the issue): assignment,
 * download, progress and results are covered by apps/server/test/external-devices.test.ts.
 */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { API, MAIN_URL, expect, openFromSidebar, test } from './fixtures';

const run = Date.now().toString(36).toUpperCase();
const ids = [1, 2, 3].map((n) => `E2E-${run}-${n}`);

test('devices added in bulk check in and show their version, check-in and log', async ({ page, session: _s }) => {
  await page.goto('/dashboard');
  await openFromSidebar(page, 'Upgrades', 'External device upgrade');
  await expect(page.getByTestId('external-page')).toBeVisible();

  // Bulk add: a pasted list, one with a name and model.
  await page.getByTestId('btn-add').click();
  const modal = page.getByTestId('external-add-modal');
  await modal.getByText('Paste a list').click();
  await page.getByTestId('external-bulk').fill(`${ids[0]}\n${ids[1]},Line 2 module,M7\n\n${ids[2]}`);
  await page.getByTestId('modal-ok').click();

  // The credentials, this once: a table and a CSV.
  const table = page.getByTestId('credentials-table');
  await expect(table.locator('tr.ant-table-row')).toHaveCount(3);
  const firstRow = table.locator('tr.ant-table-row', { hasText: ids[0]! });
  const credential = (await firstRow.locator('code').innerText()).trim();
  const lastCredential = (await table.locator('tr.ant-table-row', { hasText: ids[2]! }).locator('code').innerText()).trim();
  expect(credential.length).toBeGreaterThan(20);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => v.id)).toEqual([]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('credentials-csv').click()]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain(`${ids[0]},${credential}`);
  for (const id of ids) expect(csv).toContain(id);
  await page.getByTestId('credentials-close').click();
  await expect(table).toHaveCount(0);

  // The same identifier again is refused, naming it.
  await page.getByTestId('btn-add').click();
  await page.getByTestId('external-identifier').fill(ids[0]!);
  await page.getByTestId('modal-ok').click();
  await expect(page.getByText(`These identifiers are already registered: ${ids[0]}`).first()).toBeVisible();
  await page.getByTestId('external-add-modal').getByRole('button', { name: 'Cancel' }).click();

  // The device checks in over HTTP with its identifier and credential.
  const authorization = `Basic ${Buffer.from(`${ids[0]}:${credential}`).toString('base64')}`;
  const res = await page.request.post(`${MAIN_URL}${API}/hardware/checkin`, { headers: { authorization }, data: { version: '1.4.2' } });
  expect(await res.json()).toMatchObject({ code: 20000, data: { upgrade: null } });
  const wrong = await page.request.post(`${MAIN_URL}${API}/hardware/checkin`, {
    headers: { authorization: `Basic ${Buffer.from(`${ids[0]}:nope`).toString('base64')}` },
    data: { version: '1.4.2' },
  });
  expect(wrong.status()).toBe(401);

  await page.getByTestId('external-filter-q').fill(`E2E-${run}`);
  await page.getByTestId('filter-search').click();
  const rows = page.getByTestId('table-external').locator('tr.ant-table-row');
  await expect(rows).toHaveCount(3);
  const row = rows.filter({ hasText: ids[0]! });
  await expect(row).toContainText('1.4.2');
  await expect(row).toContainText('Not assigned');
  await expect(rows.filter({ hasText: ids[1]! })).toContainText('M7');
  await expect(rows.filter({ hasText: ids[2]! })).toContainText('Never');

  // Its log: the check-in, with the version it reported.
  await page.getByTestId(`external-logs-${ids[0]}`).click();
  const drawer = page.getByTestId('external-logs-drawer');
  await expect(drawer.locator('tr.ant-table-row')).toHaveCount(1);
  await expect(drawer.locator('tr.ant-table-row')).toContainText('Check-in');
  await expect(drawer.locator('tr.ant-table-row')).toContainText('1.4.2');
  await drawer.getByRole('button', { name: 'Close' }).click();

  // The assign dialog proposes a one-hour timeout.
  await page.getByTestId(`external-assign-${ids[0]}`).click();
  await expect(page.getByTestId('external-assign-timeout')).toHaveValue('60');
  await page.getByTestId('external-assign-modal').getByRole('button', { name: 'Cancel' }).click();

  // Delete one, after its confirmation; it can no longer check in.
  await page.getByTestId(`external-delete-${ids[2]}`).click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('1 device deleted')).toBeVisible();
  await expect(rows).toHaveCount(2);
  const gone = await page.request.post(`${MAIN_URL}${API}/hardware/checkin`, {
    headers: { authorization: `Basic ${Buffer.from(`${ids[2]}:${lastCredential}`).toString('base64')}` },
    data: { version: '1.4.3' },
  });
  expect(gone.status()).toBe(401);
});
