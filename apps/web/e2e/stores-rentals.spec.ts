/**
 * An agent runs an outlet (issue #38): creates a store, stocks two packs that report their SOC,
 * rents one out through the form, sees the stock move from available to rented, and returns the
 * pack through the return check, after which it is available again.
 */
import { expect, test, API, MAIN_URL, apiLogin, callApi } from './fixtures';

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
});
