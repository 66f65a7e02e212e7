/**
 * Errors the console hits in a browser reach the server's browser error log (issue #39): the page,
 * the build and the browser, with the stack; no query string.
 */
import { expect, openFromSidebar, test } from './fixtures';

test('an error in the page appears in the browser error log, with its page and stack', async ({ page, session: _s }) => {
  const marker = `E2E boom ${Date.now().toString(36)}`;
  await page.goto('/device/list?q=private-search');
  await expect(page.getByTestId('table-devices')).toBeVisible();
  // What the browser does with an uncaught error: an ErrorEvent on window (dispatched here, so the
  // spec's own guard against uncaught errors stays on).
  const reported = page.waitForResponse((r) => r.url().includes('/api/v1/client/errors') && r.status() === 200);
  await page.evaluate((message) => {
    const error = new TypeError(message);
    window.dispatchEvent(new ErrorEvent('error', { message: `Uncaught TypeError: ${message}`, error }));
  }, marker);
  await reported;

  await openFromSidebar(page, 'System', 'Browser errors');
  const log = page.getByTestId('page-clienterrors');
  await log.getByTestId('filter-q').fill(marker);
  await log.getByTestId('filter-search').click();
  const row = page.getByTestId('table-clienterrors').locator('tr.ant-table-row', { hasText: marker });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Error');
  await expect(row).toContainText('/device/list');
  await expect(row).not.toContainText('private-search');
  await row.getByRole('button', { name: /expand/i }).click();
  await expect(page.getByTestId('clienterror-stack').first()).toContainText(marker);
});
