/**
 * The lists an operator works in: every main list fits a 1,280 px screen without sideways
 * scrolling (English and the longer Spanish), the column chooser is remembered, a phone shows
 * each row's key fields, and a list's search, filter, sort, page and scroll survive opening a
 * device and coming back (Back, the tags bar) and travel in a copied link.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { LANGUAGE_COOKIE, MAIN_URL, callApi, expect, pickOption, shell, test } from './fixtures';

const run = Date.now().toString(36).toUpperCase();

/** Every main list page of the menu tree and its table. */
const LISTS = [
  ['/device/list', 'table-devices'],
  ['/project/alarminfo', 'table-alarms'],
  ['/project/index', 'table-projects'],
  ['/device/type', 'table-devicetypes'],
  ['/sys/adminuser', 'table-adminuser'],
  ['/sys/user', 'table-user'],
  ['/user/agent', 'table-agent'],
  ['/sys/role', 'table-role'],
  ['/sys/permission', 'table-permission'],
  ['/sys/menu', 'table-menu'],
  ['/sys/logs', 'table-logs'],
  ['/sys/devlogs', 'table-loginlogs'],
  ['/card/index', 'table-cards'],
  ['/card/orderManagement', 'table-orders'],
] as const;

async function typeId(request: APIRequestContext, token: string): Promise<number> {
  const types = await callApi<{ id: number; code: string }[]>(request, 'GET', '/devicetype/typeoptionslist', { token });
  return types.body.data.find((t) => t.code === 'BMU')!.id;
}

async function addDevice(request: APIRequestContext, token: string, fields: Record<string, unknown>) {
  const added = await callApi<{ id: number; secret: string }>(request, 'POST', '/device/add', {
    token,
    data: { typeId: await typeId(request, token), ...fields },
  });
  expect(added.body.code, added.body.message).toBe(20000);
  return added.body.data;
}

/** How far a table (and the page) overflows sideways: 0 when everything fits. */
function overflow(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((table) => {
    const scroller = table.querySelector('.ant-table-content, .ant-table-body') as HTMLElement | null;
    const page = document.documentElement;
    return {
      table: scroller ? scroller.scrollWidth - scroller.clientWidth : -1,
      page: page.scrollWidth - page.clientWidth,
    };
  });
}

for (const language of ['en', 'es'] as const) {
  test(`at 1,280 px every main list shows its default columns without scrolling sideways (${language})`, async ({ page, context, session }) => {
    test.setTimeout(120_000);
    await context.addCookies([{ name: LANGUAGE_COOKIE, value: language, url: MAIN_URL }]);
    await page.setViewportSize({ width: 1280, height: 800 });
    // Long texts a list must cut rather than widen for.
    await addDevice(page.request, session.token, {
      name: `A rack with a long name an installer typed in full ${language} ${run}`.slice(0, 64),
      sn: `WIDE-${language}-${run}-0123456789-ABCDEFGHIJ`.slice(0, 32),
    });
    for (const [path, table] of LISTS) {
      await page.goto(path);
      // The list has asked and answered (rows, or the empty state).
      await expect(page.getByTestId(table).locator('tr.ant-table-row, .ant-empty').first()).toBeVisible({ timeout: 20_000 });
      expect(await overflow(page, table), `${path} in ${language}`).toEqual({ table: 0, page: 0 });
    }
  });
}

test('the column chooser shows and hides a column, and the choice survives a reload', async ({ page, session }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const sn = `COLS-${run}`;
  await addDevice(page.request, session.token, { name: `Column rack ${run}`, sn });
  await page.goto(`/device/list?q=${sn}`);
  const table = page.getByTestId('table-devices');
  const header = (title: string) => table.locator('thead th').filter({ hasText: title });
  // A loaded shared machine can take seconds to load the page and ask for its list.
  await expect(table.locator('tr.ant-table-row', { hasText: sn })).toBeVisible({ timeout: 30_000 });
  await expect(header('Warning level')).toBeVisible();
  await expect(header('Type')).toHaveCount(0);

  await page.getByTestId('column-chooser').click();
  await page.getByTestId('column-toggle-typeName').click();
  await page.getByTestId('column-toggle-warningLevel').click();
  await expect(header('Type')).toBeVisible();
  await expect(header('Warning level')).toHaveCount(0);
  await expect(table.locator('tr.ant-table-row', { hasText: sn })).toContainText('Battery management unit');

  await page.reload();
  await expect(table.locator('tr.ant-table-row', { hasText: sn })).toBeVisible({ timeout: 30_000 });
  await expect(header('Type')).toBeVisible();
  await expect(header('Warning level')).toHaveCount(0);

  // Another browser has none of this browser's storage: the choice comes from the server.
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith('table-columns:')) localStorage.removeItem(key);
  });
  await page.reload();
  await expect(table.locator('tr.ant-table-row', { hasText: sn })).toBeVisible({ timeout: 30_000 });
  await expect(header('Type')).toBeVisible();
  await expect(header('Warning level')).toHaveCount(0);

  // Reset: the defaults again, here and on the server.
  await page.getByTestId('column-chooser').click();
  await page.getByTestId('column-chooser-reset').click();
  await expect(header('Warning level')).toBeVisible();
  await expect
    .poll(async () => (await callApi<{ value: unknown }>(page.request, 'GET', '/user/preferences/table:devices', { token: session.token })).body.data.value)
    .toEqual({});
});

test('on a phone the device list shows the SN, state and last seen of each row', async ({ page, session }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const sn = `PHONE-${run}`;
  const device = await addDevice(page.request, session.token, { name: `Phone rack ${run}`, sn });
  // The device reports once, so it has a last-seen time.
  const uplink = await page.request.post(`${MAIN_URL}/api/v1/ingest/telemetry`, {
    headers: { authorization: `Basic ${Buffer.from(`${sn}:${device.secret}`).toString('base64')}` },
    data: { values: { '02109001': 77 } },
  });
  expect((await uplink.json()).data).toMatchObject({ accepted: 1 });

  await page.goto(`/device/list?q=${sn}`);
  const row = page.getByTestId('table-devices').locator('tr.ant-table-row', { hasText: `Phone rack ${run}` });
  await expect(row.getByTestId('row-field-sn')).toHaveText(sn, { timeout: 30_000 });
  await expect(row.getByTestId('row-field-online')).toHaveText('Online');
  await expect(row.getByTestId('row-field-lastSeenAt').locator('time')).toHaveAttribute('datetime', /\d{4}-/);
  for (const field of ['row-field-sn', 'row-field-online', 'row-field-lastSeenAt']) {
    await expect(row.getByTestId(field)).toBeInViewport();
  }
  expect(await overflow(page, 'table-devices')).toEqual({ table: 0, page: 0 });
});

/**
 * A type an operator may edit (the built-in one is read-only: no actions column), with the
 * built-in type's parameters and alarm rules, the longest a rule editor shows.
 */
async function editableCopy(request: APIRequestContext, token: string, suffix: string): Promise<number> {
  const bmu = await typeId(request, token);
  const code = `COPY${suffix}${run}`.slice(0, 32);
  const added = await callApi<{ id: number }>(request, 'POST', '/devicetype/addtype', { token, data: { code, name: `Copy ${code}` } });
  expect(added.body.code, added.body.message).toBe(20000);
  const id = added.body.data.id;
  const params = await callApi<Record<string, unknown>[]>(request, 'GET', `/devicetype/setparam?id=${bmu}`, { token });
  const setParams = await callApi(request, 'POST', '/devicetype/addsetparam', {
    token,
    data: { id, params: params.body.data.map(({ id: _id, typeId: _type, ...p }) => p) },
  });
  expect(setParams.body.code, setParams.body.message).toBe(20000);
  const rules = await callApi<Record<string, unknown>[]>(request, 'GET', `/devicetype/setalarm?id=${bmu}`, { token });
  const setRules = await callApi(request, 'POST', '/devicetype/addsetalarm', {
    token,
    data: { id, rules: rules.body.data.map(({ id: _id, typeId: _type, ...r }) => r) },
  });
  expect(setRules.body.code, setRules.body.message).toBe(20000);
  return id;
}

/** The two settings editors of a type: page, table, row test id prefix. */
const EDITORS = [
  ['/device/setparam', 'table-params', 'param'],
  ['/device/setalarm', 'table-alarms', 'alarm'],
] as const;

for (const language of ['en', 'es'] as const) {
  test(`at 1,280 px the parameter and alarm-rule editors fit without scrolling sideways (${language})`, async ({ page, context, session }) => {
    await context.addCookies([{ name: LANGUAGE_COOKIE, value: language, url: MAIN_URL }]);
    await page.setViewportSize({ width: 1280, height: 800 });
    const id = await editableCopy(page.request, session.token, language.toUpperCase());
    for (const [path, table, prefix] of EDITORS) {
      await page.goto(`${path}?id=${id}`);
      const row = page.getByTestId(`${prefix}-row-0`);
      await expect(row.getByTestId('btn-delete-row')).toBeVisible({ timeout: 30_000 });
      expect(await overflow(page, table), `${path} in ${language}`).toEqual({ table: 0, page: 0 });
      // The other fields open under the row, and still fit.
      await row.getByTestId('btn-more').click();
      await expect(page.getByTestId(`${prefix}-more-0`).getByTestId(prefix === 'param' ? 'field-nameEn' : 'field-messageEn')).toBeVisible();
      expect(await overflow(page, table), `${path} in ${language}, a row open`).toEqual({ table: 0, page: 0 });
    }
  });
}

test('on a phone each row of the parameter and alarm-rule editors shows its key fields', async ({ page, session }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const id = await editableCopy(page.request, session.token, 'PH');
  const keyFields = { param: ['field-semaphoreId', 'field-name', 'field-dataType'], alarm: ['field-semaphoreId', 'field-comparison', 'field-threshold', 'field-level'] };
  for (const [path, table, prefix] of EDITORS) {
    await page.goto(`${path}?id=${id}`);
    const row = page.getByTestId(`${prefix}-row-0`);
    await expect(row.getByTestId('field-semaphoreId')).toBeVisible({ timeout: 30_000 });
    for (const field of keyFields[prefix]) await expect(row.getByTestId(field).first()).toBeInViewport();
    expect(await overflow(page, table), path).toEqual({ table: 0, page: 0 });
    // The rest, the row's actions among them, in its expansion.
    await row.getByTestId('btn-more').click();
    await expect(page.getByTestId(`${prefix}-more-0`).getByTestId('btn-delete-row')).toBeVisible();
    expect(await overflow(page, table), `${path}, a row open`).toEqual({ table: 0, page: 0 });
  }
});

test.describe('a filtered list survives a visit to a device', () => {
  let seeded = 0;
  /** 25 enabled devices and a disabled one under a prefix of this test's own. */
  async function seed(request: APIRequestContext, token: string) {
    const prefix = `KEEP${run}${(seeded += 1)}`;
    const sns = Array.from({ length: 25 }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}`);
    for (const sn of sns) await addDevice(request, token, { name: `Keep rack ${sn}`, sn });
    // Matches the search but not the filter.
    await addDevice(request, token, { name: `Keep rack off ${prefix}`, sn: `${prefix}-OFF`, enabled: false });
    return { prefix, sns };
  }

  const table = (page: Page) => page.getByTestId('table-devices');
  const rowSns = (page: Page) =>
    table(page)
      .locator('tr.ant-table-row')
      .evaluateAll((rows) => rows.map((r) => /KEEP\w+-\d\d/.exec(r.textContent ?? '')?.[0] ?? ''));

  /** Search, "Enabled", SN descending and page 2, as an operator sets them. */
  async function filterList(page: Page, token: string): Promise<{ prefix: string; expected: string[] }> {
    const { prefix, sns } = await seed(page.request, token);
    await page.goto('/device/list');
    await expect(table(page).locator('tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('filter-q').locator('input').fill(prefix);
    await page.getByTestId('filter-q').locator('input').press('Enter');
    await pickOption(page, page.getByTestId('filter-enabled'), /^Enabled$/);
    const snHeader = table(page).locator('thead th').filter({ hasText: 'Device code (SN)' });
    // Like a user, each click once the list shows the last one's order.
    await snHeader.click();
    await expect(snHeader).toHaveAttribute('aria-sort', 'ascending');
    await snHeader.click();
    await expect(snHeader).toHaveAttribute('aria-sort', 'descending');
    await page.locator('.ant-pagination').getByTitle('2', { exact: true }).click();
    // Page 2 of 25 enabled devices, SN descending: the 5 smallest.
    const expected = sns.slice(0, 5).reverse();
    await expect.poll(() => rowSns(page)).toEqual(expected);
    return { prefix, expected };
  }

  async function expectSameList(page: Page, prefix: string, expected: string[]) {
    await expect.poll(() => rowSns(page), { timeout: 30_000 }).toEqual(expected);
    await expect(page.getByTestId('filter-q').locator('input')).toHaveValue(prefix);
    await expect(page.getByTestId('filter-enabled')).toContainText('Enabled');
    await expect(table(page).locator('thead th').filter({ hasText: 'Device code (SN)' })).toHaveAttribute('aria-sort', 'descending');
    await expect(page.locator('.ant-pagination-item-active')).toHaveText('2');
  }

  test('Back from a device returns to the same list, scrolled where it was', async ({ page, session }) => {
    // Short enough that page 2's rows scroll.
    await page.setViewportSize({ width: 1280, height: 450 });
    const { prefix, expected } = await filterList(page, session.token);
    const last = expected.at(-1)!;
    const link = table(page).locator('tr.ant-table-row', { hasText: last }).getByRole('link');
    await link.scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 200);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(60);
    const scrolled = await page.evaluate(() => window.scrollY);
    await link.click();
    await expect(page).toHaveURL(/\/project\/info\?id=\d+/);
    await expect(page.getByText(last).first()).toBeVisible();
    // The operator reads the device from its top.
    await page.evaluate(() => window.scrollTo(0, 0));

    await page.goBack();
    await expectSameList(page, prefix, expected);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 40);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 40);
  });

  test("the list's tab in the tags bar reopens the same list, scrolled where it was", async ({ page, session }) => {
    // Short enough that page 2's rows scroll.
    await page.setViewportSize({ width: 1280, height: 450 });
    const { prefix, expected } = await filterList(page, session.token);
    const last = expected.at(-1)!;
    const link = table(page).locator('tr.ant-table-row', { hasText: last }).getByRole('link');
    await link.scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 200);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(60);
    const scrolled = await page.evaluate(() => window.scrollY);
    await link.click();
    await expect(page).toHaveURL(/\/project\/info\?id=\d+/);
    await expect(page.getByText(last).first()).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));

    // A new visit to the list's address (not Back): the browser restores nothing by itself.
    // A click while the bar still settles on the new tab can be lost: click until it opens.
    await expect(async () => {
      if (!page.url().includes('/device/list')) await shell(page).tag('Device list').click();
      await expect(page).toHaveURL(/\/device\/list\?/, { timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    await expectSameList(page, prefix, expected);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 40);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 40);
  });

  test('a copied link opens the same list', async ({ page, context, session }) => {
    const { prefix, expected } = await filterList(page, session.token);
    const link = page.url();
    const other = await context.newPage();
    await other.goto(link);
    await expectSameList(other, prefix, expected);
    await other.close();
  });
});
