/**
 * Keyboard only (issue 16): signing in, opening the device list from the sidebar, importing a
 * sheet in the import dialog and creating a user, with Tab, the arrows, Enter, Space and Escape and
 * no mouse. Each step also checks that the focus is visible, that a dialog keeps the focus inside
 * and gives it back to the button that opened it.
 */
import type { Locator, Page } from '@playwright/test';
import { BmuModel, type Uplink } from '@iot/sim-model';
import { row, sheet, XLSX_TYPE } from './device-sheet';
import { ADMIN, callApi, expect, MAIN_URL, test } from './fixtures';

const run = Date.now().toString(36);

/** Whether the focus is on `target` or inside it. */
function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));
}

/** Presses `key` (Tab by default) until `target` has the focus; fails after `max` presses. */
async function pressUntilFocused(page: Page, target: Locator, key = 'Tab', max = 60) {
  for (let i = 0; i < max && !(await hasFocus(target)); i++) await page.keyboard.press(key);
  await expect(target, `not reached with ${key}`).toBeFocused({ timeout: 1_000 }).catch(async () => {
    expect(await hasFocus(target), `not reached with ${key}`).toBe(true);
  });
  await expectVisibleFocus(page);
}

/**
 * The focused element shows it: an outline, or the focus shadow antd draws on an input's frame.
 */
async function expectVisibleFocus(page: Page) {
  const shown = await page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'nothing focused';
    const frames = [el, el.closest('.ant-input-affix-wrapper, .ant-input-number, .ant-select, .ant-picker, .login-input')];
    const marked = frames.some((f) => {
      if (!f) return false;
      const s = getComputedStyle(f);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    });
    return marked ? 'ok' : `no focus mark on ${el.outerHTML.slice(0, 120)}`;
  });
  expect(shown).toBe('ok');
}

/** Moves through a menu with the arrow key until the entry titled `title` has the focus. */
async function arrowTo(page: Page, menu: Locator, title: string) {
  const entry = menu.getByRole('menuitem').filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) }).first();
  await pressUntilFocused(page, entry, 'ArrowDown', 30);
}

/**
 * The focus never lands on the page behind `dialog`, however often Tab is pressed. Past the
 * dialog's last control it may leave the document for the browser's own controls (the dialog is
 * the document's end; antd then brings it back to the first control), never the page behind.
 */
async function expectFocusTrapped(page: Page, dialog: Locator, presses = 25) {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    const where = await dialog.evaluate((d) => {
      const el = document.activeElement;
      return !el || el === document.body || d.contains(el) ? 'ok' : el.outerHTML.slice(0, 120);
    });
    expect(where, `Tab ${i + 1} reached the page behind the dialog`).toBe('ok');
  }
}

test('keyboard only: sign in, device list, import a sheet, create a user', async ({ page }) => {
  test.setTimeout(120_000);
  const sidebar = page.getByTestId('sidebar');

  await test.step('sign in', async () => {
    await page.goto('/login');
    await pressUntilFocused(page, page.getByTestId('login-username'));
    await page.keyboard.type(ADMIN.username);
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('login-password')).toBeFocused();
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  await test.step('the sidebar: arrows and Enter open the device list', async () => {
    // Tab reaches the menu; the arrows then move between its entries. Tab goes on from where the
    // login form was, so it may first walk through the whole dashboard (with many devices, more
    // than 60 stops) before it comes round to the sidebar: the page is let settle, as a person
    // sees it before pressing Tab, and Tab may take that long walk.
    await expect(page.getByTestId('home-devices-total').or(page.getByTestId('home-empty'))).toBeVisible({ timeout: 30_000 });
    await pressUntilFocused(page, sidebar.getByRole('menu').first(), 'Tab', 250);
    await arrowTo(page, sidebar, 'Devices');
    await page.keyboard.press('Enter');
    await arrowTo(page, sidebar, 'Device list');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/device\/list$/);
    await expect(page.getByTestId('table-devices')).toBeVisible();
  });

  const sn = `KEY-${run}`;
  await test.step('import a sheet in the import dialog', async () => {
    const importButton = page.getByTestId('btn-import');
    await pressUntilFocused(page, importButton);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expectFocusTrapped(page, dialog);

    // The drop zone is a button: Enter opens the file chooser.
    await pressUntilFocused(page, page.getByTestId('import-dragger').getByRole('button'));
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({
      name: 'devices.xlsx',
      mimeType: XLSX_TYPE,
      buffer: sheet([row({ name: 'Keyboard rack', sn, type: 'BMU' })]),
    });
    await pressUntilFocused(page, page.getByTestId('import-start'));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('import-report')).toContainText('1 device imported');

    // Escape closes the dialog and the focus is back on the Import button.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(importButton).toBeFocused();
    await expect(page.getByTestId('table-devices')).toContainText(sn);
  });

  const username = `key${run}`;
  await test.step('create a user', async () => {
    await pressUntilFocused(page, sidebar.getByRole('menu').first(), 'Shift+Tab', 200);
    await arrowTo(page, sidebar, 'System');
    await page.keyboard.press('Enter');
    await arrowTo(page, sidebar, 'Administrators');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/sys\/adminuser$/);

    const add = page.getByTestId('btn-add');
    await pressUntilFocused(page, add);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await pressUntilFocused(page, dialog.getByTestId('field-username'));
    await page.keyboard.type(username);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Keyboard-pass-1');
    // The role: a searchable select, opened and chosen with the keyboard.
    await pressUntilFocused(page, dialog.getByTestId('field-roleId'));
    await page.keyboard.type('Battery');
    await page.keyboard.press('Enter');
    await expect(dialog.getByTestId('field-roleId')).not.toContainText('Please');
    await expectFocusTrapped(page, dialog, 10);

    await pressUntilFocused(page, page.getByTestId('modal-ok'));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('table-adminuser')).toContainText(username);
    await expect(add).toBeFocused();
  });
});

test('the skip link: one Tab and Enter reach the page, past the sidebar and the navbar', async ({ page, session: _s }) => {
  await page.goto('/device/list');
  await expect(page.getByTestId('table-devices')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-link');
  await expect(skip).toBeFocused();
  await expect(skip).toHaveText('Skip to content');
  // Out of sight until focused, then in view.
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  const heading = page.locator('main h1');
  await expect(heading).toBeFocused();
  await expect(heading).toHaveText('Device list');
  // The next Tab is in the page, not back in the sidebar or the navbar.
  await page.keyboard.press('Tab');
  expect(await page.locator('main').evaluate((main) => main.contains(document.activeElement))).toBe(true);
});

test('after a navigation the focus is on the new page’s heading', async ({ page, session: _s }) => {
  await page.goto('/dashboard');
  await expect(page.locator('main h1')).toHaveText('Dashboard');
  // The first page keeps the skip link first: nothing has the focus yet.
  await expect(page.locator('main h1')).not.toBeFocused();
  await page.getByTestId('sidebar').getByRole('menuitem', { name: 'Devices' }).click();
  await page.getByTestId('sidebar-item-/device/list').click();
  await expect(page).toHaveURL(/\/device\/list$/);
  const heading = page.locator('main h1');
  await expect(heading).toHaveText('Device list');
  await expect(heading).toBeFocused();
});

test('the bell’s alarms are reached with Tab and opened with Enter', async ({ page, session }) => {
  // An alarm of this test's own device, so the bell has at least one.
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const typeId = types.body.data.find((t) => t.code === 'BMU')!.id;
  const sn = `KEYALM-${run}`;
  const added = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
    token: session.token,
    data: { name: `Keyboard alarm ${run}`, sn, typeId },
  });
  expect(added.body.code, added.body.message).toBe(20000);
  const auth = { authorization: `Basic ${Buffer.from(`${sn}:${added.body.data.secret}`).toString('base64')}` };
  // The simulated battery's last messages up to its first fault (deterministic by seed).
  const start = Date.now() - 3_600_000;
  const bmu = new BmuModel({ sn, now: start, seed: 7, faultsPerHour: 60, track: false });
  const sent: Uplink[] = [];
  for (let i = 1; i < 50_000 && sent.at(-1)?.kind !== 'alarm'; i++) sent.push(bmu.next(start + i * 1000));
  for (const m of sent.slice(-4)) {
    const res = await page.request.post(`${MAIN_URL}/api/v1/ingest/${m.kind}`, { headers: auth, data: m.body });
    expect((await res.json()).code).toBe(20000);
  }

  await page.goto('/dashboard');
  const bell = page.getByTestId('alarm-bell');
  await expect(page.getByTestId('alarm-bell-count')).not.toHaveAttribute('data-count', '0');
  await pressUntilFocused(page, bell);
  await page.keyboard.press('Enter');
  const first = page.locator('[data-testid^="alarm-bell-item-"]').first();
  // The panel takes the focus on its first alarm, with a visible focus; Escape gives it back.
  await expect(first).toBeFocused();
  await expectVisibleFocus(page);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('alarm-bell-panel')).toBeHidden();
  await expect(bell).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(first).toBeFocused();
  // Tab walks the alarms to "View all alarms"; Tab past it closes the panel, back on the bell.
  await pressUntilFocused(page, page.getByTestId('alarm-bell-all'));
  await page.keyboard.press('Tab');
  await expect(bell).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(first).toBeFocused();
  const id = (await first.getAttribute('data-testid'))!.replace('alarm-bell-item-', '');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/project/alarminfo\\?alarmId=${id}$`));
});

test('the header search finds a device by its SN and Enter opens its details', async ({ page, session }) => {
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const typeId = types.body.data.find((t) => t.code === 'BMU')!.id;
  const sn = `FIND-${run}-0042`;
  const added = await callApi<{ id: number }>(page.request, 'POST', '/device/add', {
    token: session.token,
    data: { name: `Search target ${run}`, sn, typeId },
  });
  expect(added.body.code, added.body.message).toBe(20000);
  const id = added.body.data.id;

  await page.goto('/dashboard');
  await pressUntilFocused(page, page.getByTestId('header-search-toggle'));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: /device SN/ })).toBeFocused();
  await page.keyboard.type(sn.toLowerCase());
  // Grouped: the device under "Devices", named by SN and name.
  await expect(page.getByTestId('search-group-devices')).toHaveText('Devices');
  const option = page.getByTestId(`search-option-device-${id}`);
  await expect(option).toHaveText(`${sn} · Search target ${run}`);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/project/info\\?id=${id}$`));
  await expect(page.locator('main')).toContainText(sn);
});
