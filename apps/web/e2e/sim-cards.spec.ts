/**
 * The super administrator prices a plan; a fleet operator adds a SIM card on it, sees the
 * carrier's live data (the built-in simulated carrier), puts a number on its voice whitelist,
 * orders a 3-month renewal at the listed price, sees the payment QR code with its amount, changes
 * it to 6 months, pays through the simulated provider, sees the card's new expiry date, and a
 * refund takes it back.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Critical or serious WCAG 2.1 A/AA violations inside `selector` (dialogs the page pass never opens). */
async function axeFindings(page: Page, selector: string) {
  const res = await new AxeBuilder({ page }).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return res.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const run = Date.now().toString().slice(-8);
const ICCID = `898604000000${run}`;
const MSISDN = `14400${run}`;
const PLAN = `IoT 1GB ${run}`;

test.setTimeout(120_000); // the flow takes seconds; a fresh server on a busy shared machine can take far longer

test('price a plan, add a card, see carrier info, whitelist a number, order and pay a renewal, see the new expiry, refund it', async ({ page, session: _session }) => {
  // The price list (card:price): ¥5 a card and month for the plan.
  await page.goto('/card/orderManagement');
  await expect(page.getByTestId('order-list-page')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('btn-price-list').click();
  const prices = page.getByTestId('price-list');
  await prices.getByTestId('price-add').click();
  const priceForm = page.getByTestId('price-form');
  await priceForm.getByTestId('price-plan').fill(PLAN);
  await priceForm.getByTestId('price-unit').locator('xpath=descendant-or-self::input').first().fill('5');
  await priceForm.getByTestId('modal-ok').click();
  await expect(priceForm).toBeHidden();
  await expect(prices.getByTestId('table-prices').locator('tr').filter({ hasText: PLAN })).toContainText('¥5.00 per card and month');
  expect(await axeFindings(page, '[data-testid="price-list"]')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(prices).toBeHidden();

  await page.goto('/card/index');
  // The first page load of a fresh server can be slow on a busy machine.
  await expect(page.getByTestId('card-list-page')).toBeVisible({ timeout: 30_000 });

  // Add the card.
  await page.getByTestId('btn-add').click();
  const form = page.getByTestId('card-form');
  await form.getByTestId('card-iccid').fill(ICCID);
  await form.getByTestId('card-msisdn').fill(MSISDN);
  await form.getByTestId('card-plan').fill(PLAN);
  const expiry = form.locator('.ant-form-item').filter({ hasText: 'Expiry date' }).locator('input');
  await expiry.click();
  await expiry.fill('2030-01-15');
  // Leaving the field keeps the typed date (Enter would also submit the form).
  await form.getByTestId('card-plan').click();
  await expect(expiry).toHaveValue('2030-01-15');
  await form.getByTestId('modal-ok').click();
  await expect(form).toBeHidden();
  const row = page.getByTestId('table-cards').locator('tr').filter({ hasText: ICCID });
  await expect(row.getByTestId('card-expiry')).toHaveText('2030-01-15');

  // The card's page: live carrier data and the voice whitelist.
  await page.getByTestId(`card-open-${ICCID}`).click();
  const drawer = page.getByTestId('card-drawer');
  await expect(drawer.getByTestId('carrier-basic')).toContainText(MSISDN);
  await expect(drawer.getByTestId('carrier-basic')).toContainText('Simulated carrier');
  // The carrier's compact dates (20240104000000) shown as dates (issue 33).
  await expect(drawer.getByTestId('carrier-basic')).toContainText(/Activated\s*20\d\d-\d\d-\d\d/);
  await expect(drawer.getByTestId('carrier-basic')).not.toContainText(/(Activated|Opened)\s*\d{14}/);
  await expect(drawer.getByTestId('carrier-voice')).toContainText(/\d+/);
  await drawer.getByTestId('whitelist-number').fill('13800138000');
  await drawer.getByTestId('whitelist-add').click();
  await expect(drawer.getByTestId('whitelist-table')).toContainText('13800138000');
  await expect(drawer.getByTestId('carrier-whitelist')).toContainText('1 of 10');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // Order a 3-month renewal: the card's plan is preselected at its listed ¥5 a month: ¥15.00.
  await row.locator('[data-testid^="card-renew-"]').click();
  const order = page.getByTestId('order-form');
  await expect(order.getByTestId('order-price')).toContainText(`${PLAN} · ¥5.00 per card and month`);
  await order.getByTestId('order-months').locator('xpath=descendant-or-self::input').first().fill('3');
  await expect(order.getByTestId('order-amount')).toContainText('¥15.00');
  expect(await axeFindings(page, '[data-testid="order-form"]')).toEqual([]);
  await order.getByTestId('modal-ok').click();

  // The payment QR code with its amount and countdown.
  await expect(page).toHaveURL(/\/card\/orderManagement\?pay=\d+/);
  const orderId = new URL(page.url()).searchParams.get('pay');
  const pay = page.getByTestId('pay-modal');
  await expect(pay.getByTestId('pay-qr').locator('canvas')).toBeVisible();
  await expect(pay.getByTestId('pay-amount')).toContainText('¥15.00');
  await expect(pay.getByTestId('pay-countdown')).toContainText(/\d\d:\d\d/);
  await expect(pay.getByTestId('pay-code-url')).toContainText('weixin://wxpay/bizpayurl');

  // Changed to 6 months before paying: ¥30.00, and a new QR code for the new amount.
  await page.keyboard.press('Escape');
  await expect(pay).toBeHidden();
  await page.getByTestId(`order-edit-${orderId}`).click();
  const edit = page.getByTestId('order-form');
  await edit.getByTestId('order-months').locator('xpath=descendant-or-self::input').first().fill('6');
  await expect(edit.getByTestId('order-amount')).toContainText('¥30.00');
  await edit.getByTestId('modal-ok').click();
  await expect(edit).toBeHidden();
  await expect(page.getByTestId('table-orders').locator('tr').filter({ hasText: ICCID })).toContainText('¥30.00');
  await page.getByTestId(`order-pay-${orderId}`).click();
  await expect(pay.getByTestId('pay-amount')).toContainText('¥30.00');

  // The simulated provider's customer pays: a signed notification marks the order paid.
  await pay.getByTestId('pay-simulate').click();
  await expect(pay.getByTestId('pay-success')).toBeVisible();
  await expect(pay).toContainText('2030-01-15 → 2030-07-15');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('table-orders').locator('tr').filter({ hasText: ICCID }).getByTestId('order-status')).toHaveText('Paid');

  // The card's new expiry.
  await page.goto('/card/index');
  await expect(page.getByTestId('table-cards').locator('tr').filter({ hasText: ICCID }).getByTestId('card-expiry')).toHaveText('2030-07-15');

  // Refunded: the card goes back to the expiry it had.
  await page.goto('/card/orderManagement');
  await page.getByTestId(`order-refund-${orderId}`).click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('table-orders').locator('tr').filter({ hasText: ICCID }).getByTestId('order-status')).toHaveText('Refunded');
  await page.goto('/card/index');
  await expect(page.getByTestId('table-cards').locator('tr').filter({ hasText: ICCID }).getByTestId('card-expiry')).toHaveText('2030-01-15');
});
