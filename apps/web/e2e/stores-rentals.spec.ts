/**
 * An agent runs an outlet (issue #38): creates a store, stocks two packs that report their SOC,
 * rents one out through the form, sees the stock move from available to rented, and returns the
 * pack through the return check, after which it is available again; then imports a sale of the
 * other pack from a sheet, with a row refused for its unknown store.
 */
import * as XLSX from '@e965/xlsx';
import { RENTAL_SHEET_COLUMNS } from '@iot/contract';
import { expect, test, API, MAIN_URL, apiLogin, callApi } from './fixtures';
import { XLSX_TYPE } from './device-sheet';

/** A rental sheet with the English headers and rows by column key. */
function rentalSheet(rows: Partial<Record<(typeof RENTAL_SHEET_COLUMNS)[number]['key'], string | number>>[]): Buffer {
  const wb = XLSX.utils.book_new();
  const aoa = [RENTAL_SHEET_COLUMNS.map((c) => c.en), ...rows.map((r) => RENTAL_SHEET_COLUMNS.map((c) => r[c.key] ?? ''))];
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), 'rentals');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

const run = Date.now().toString(36).toUpperCase();
const CODE = `E2E${run}`;
const SNS = [`EP${run}A`, `EP${run}B`];

test.setTimeout(120_000);

test('create a store, stock two packs, rent one, see the stock move, return it', async ({ page, request, session: _session }) => {
  // Two battery packs that report a full charge over the HTTP uplink (as the demo fleet's do).
  const token = await apiLogin(request);
  const types = await callApi<{ id: number; code: string }[]>(request, 'GET', '/devicetype/typeoptionslist', { token });
  const typeId = types.body.data.find((x) => x.code === 'BMU')!.id;
  for (const sn of SNS) {
    const added = await callApi<{ id: number; secret: string }>(request, 'POST', '/device/add', { token, data: { name: sn, sn, typeId } });
    const res = await request.post(`${MAIN_URL}${API}/ingest/telemetry`, {
      headers: { authorization: `Basic ${Buffer.from(`${sn}:${added.body.data.secret}`).toString('base64')}` },
      data: { ts: Date.now() - 1_000, values: { '02109001': 96 } },
    });
    expect(((await res.json()) as { code: number }).code).toBe(20000);
  }

  // The store, through its form.
  await page.goto('/store/index');
  await expect(page.getByTestId('store-list-page')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('btn-add').click();
  const form = page.getByTestId('store-form');
  await form.getByTestId('store-name').fill(`Harbour ${run}`);
  await form.getByTestId('store-code').fill(CODE);
  await form.getByTestId('modal-ok').click();
  await expect(form).toBeHidden();
  const row = page.getByTestId('table-stores').locator('tr').filter({ hasText: CODE });
  await expect(row).toContainText('No packs');

  // Stock both packs.
  await page.getByTestId(`store-open-${CODE}`).click();
  const drawer = page.getByTestId('stock-drawer');
  for (const sn of SNS) {
    await drawer.getByTestId('stock-pick').locator('input').fill(sn);
    await page.locator('.ant-select-item-option').filter({ hasText: sn }).click();
  }
  await drawer.getByTestId('stock-add').click();
  await expect(drawer.getByTestId('table-stock')).toContainText(SNS[1]!);
  await page.keyboard.press('Escape');
  await expect(row.getByTestId('stock-available')).toHaveText('Available 2');

  // Rent one out.
  await page.goto('/rent/index');
  await expect(page.getByTestId('rental-list-page')).toBeVisible();
  await page.getByTestId('btn-add').click();
  const rent = page.getByTestId('rental-form');
  await rent.getByTestId('rental-store').click();
  await page.locator('.ant-select-item-option').filter({ hasText: CODE }).click();
  await rent.getByTestId('rental-pack').click();
  await page.locator('.ant-select-item-option').filter({ hasText: SNS[0]! }).click();
  await rent.getByTestId('rental-customer').fill('Li Lei');
  await rent.getByTestId('rental-phone').fill('13800000001');
  await rent.getByTestId('rental-price').locator('xpath=descendant-or-self::input').first().fill('12.5');
  await rent.getByTestId('modal-ok').click();
  await expect(rent).toBeHidden();
  const rental = page.getByTestId('table-rentals').locator('tr').filter({ hasText: SNS[0]! });
  await expect(rental).toContainText('Active');

  // The stock moved.
  await page.goto('/store/index');
  await expect(row.getByTestId('stock-available')).toHaveText('Available 1');
  await expect(row.getByTestId('stock-rented')).toHaveText('Rented 1');

  // Return it through the check.
  await page.goto('/rent/index');
  await rental.locator('[data-testid^="rental-return-"]').click();
  const check = page.getByTestId('return-check');
  await expect(check.getByTestId('check-verdict')).toContainText('The pack passes');
  await page.getByTestId('return-confirm').click();
  await expect(rental).toContainText('Returned');
  await page.goto('/store/index');
  await expect(row.getByTestId('stock-available')).toHaveText('Available 2');

  // Import a sale of the other pack; a row naming no store of ours is refused with its reason.
  await page.goto('/rent/index');
  await page.getByTestId('btn-import').click();
  const dialog = page.getByTestId('rental-import');
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'rentals.xlsx',
    mimeType: XLSX_TYPE,
    buffer: rentalSheet([
      { store: CODE, deviceSn: SNS[1]!, customerName: 'Han Mei', customerPhone: '13800000002', kind: 'sale', totalPrice: 980 },
      { store: `NO${run}`, deviceSn: SNS[0]!, customerName: 'Nobody', customerPhone: '13800000003', pricePerDay: 10, dueAt: '2099-01-01' },
    ]),
  });
  await page.getByTestId('rental-import-run').click();
  await expect(dialog).toContainText('1 of 2 rows imported; errors: 1');
  const refused = dialog.locator('tr.ant-table-row');
  await expect(refused).toHaveCount(1);
  await expect(refused.locator('td').nth(0)).toHaveText('3');
  await expect(refused.locator('td').nth(1)).toHaveText('Store');
  await expect(refused.locator('td').nth(2)).toHaveText(`No store with code NO${run} among yours`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('table-rentals').locator('tr').filter({ hasText: SNS[1]! })).toContainText('Sold');
  await page.goto('/store/index');
  await expect(row.getByTestId('stock-available')).toHaveText('Available 1');
});
