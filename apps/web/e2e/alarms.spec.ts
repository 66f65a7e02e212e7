/**
 * A simulated battery (the fleet simulator's model, @iot/sim-model) trips a fault; the console's
 * bell counts the new alarm without a reload, and the operator processes it on /project/alarminfo
 * with a note: the state and the count change. A severe fault pops up and reads the same (colour
 * and word of the one severity scale) in the pop-up, the bell, the alarm list and the rule editor;
 * the alarm list is reached from the sidebar.
 */
import { BmuModel, type Uplink } from '@iot/sim-model';
import type { Locator } from '@playwright/test';
import { callApi, expect, MAIN_URL, pickOption, shell, test } from './fixtures';

const run = Date.now().toString(36);

/** The model's messages up to and including its first device alarm (deterministic by seed). */
function untilAlarm(sn: string): Uplink[] {
  const start = Date.now() - 3_600_000;
  const bmu = new BmuModel({ sn, now: start, seed: 7, faultsPerHour: 60, track: false });
  const out: Uplink[] = [];
  for (let i = 1; i < 50_000; i++) {
    const m = bmu.next(start + i * 1000);
    out.push(m);
    if (m.kind === 'alarm') return out;
  }
  throw new Error('the model tripped no fault');
}

test('a simulated fault raises the bell count live; processing it with a note changes its state and the count', async ({ page, session }) => {
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const bmu = types.body.data.find((t) => t.code === 'BMU')!;
  const sn = `ALM-${run}`;
  const added = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
    token: session.token,
    data: { name: `Alarm rack ${run}`, sn, typeId: bmu.id },
  });
  expect(added.body.code, added.body.message).toBe(20000);

  // The live channel is logged in once the server answers LOGIN_OK (111).
  let loggedIn = false;
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      if ((JSON.parse(String(payload)) as { type: number }).type === 111) loggedIn = true;
    }),
  );
  await page.goto('/dashboard');
  const bell = page.getByTestId('alarm-bell-count');
  await expect(bell).toBeVisible();
  const before = Number(await bell.getAttribute('data-count'));
  await expect.poll(() => loggedIn, { timeout: 10_000 }).toBe(true);

  // The last messages before the fault, then the device's alarm (within the per-device rate limit).
  const auth = { authorization: `Basic ${Buffer.from(`${sn}:${added.body.data.secret}`).toString('base64')}` };
  for (const m of untilAlarm(sn).slice(-4)) {
    const res = await page.request.post(`${MAIN_URL}/api/v1/ingest/${m.kind}`, { headers: auth, data: m.body });
    expect((await res.json()).code).toBe(20000);
  }

  // No reload: the bell counts it.
  await expect.poll(async () => Number(await bell.getAttribute('data-count')), { timeout: 10_000 }).toBeGreaterThan(before);
  const raised = Number(await bell.getAttribute('data-count'));

  // An alarm of the bell opens that alarm alone; "show all" drops it.
  await page.getByTestId('alarm-bell').click();
  await page.locator('[data-testid^="alarm-bell-item-"]').first().click();
  await expect(page).toHaveURL(/\/project\/alarminfo\?alarmId=\d+$/);
  await expect(page.getByTestId('alarm-one-filter')).toBeVisible();
  await expect(page.getByTestId('table-alarms').locator('tr.ant-table-row')).toHaveCount(1);
  await page.getByTestId('alarm-show-all').click();
  await expect(page).toHaveURL(/\/project\/alarminfo$/);
  await expect(page.getByTestId('alarm-one-filter')).toHaveCount(0);

  // The link of the alarm e-mail (and of the notification): this device's newest alarm; its
  // device name opens the device's details.
  const mine = await callApi<{ items: { id: number; deviceId: number }[] }>(
    page.request, 'GET', `/device/alarmlist?device=${sn}&sort=startedAt&order=desc`, { token: session.token },
  );
  const newest = mine.body.data.items[0]!;
  await page.goto(`/project/alarminfo?alarmId=${newest.id}`);
  await expect(page.getByTestId('alarm-one-filter')).toContainText(`#${newest.id}`, { timeout: 20_000 });
  const only = page.getByTestId('table-alarms').locator('tr.ant-table-row');
  await expect(only).toHaveCount(1, { timeout: 20_000 });
  await expect(only).toContainText(sn);
  await page.getByTestId(`alarm-device-${newest.id}`).click();
  await expect(page).toHaveURL(new RegExp(`/project/info\\?id=${newest.deviceId}$`));
  await expect(page.getByTestId('tag-/project/info')).toContainText(`Alarm rack ${run}`);

  // From the bell to the alarm page, then the device's alarms (by type and name).
  await page.getByTestId('alarm-bell').click();
  await page.getByTestId('alarm-bell-all').click();
  await expect(page).toHaveURL(/\/project\/alarminfo$/);
  await pickOption(page, page.getByTestId('alarm-filter-type'), 'Battery management unit');
  await page.getByTestId('alarm-filter-device').fill(sn);
  await page.getByTestId('filter-search').filter({ visible: true }).click();
  const rows = page.getByTestId('table-alarms').locator('tr.ant-table-row', { hasText: sn });
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBe(raised - before);
  await expect(rows.first().locator('[data-testid^="alarm-state-"]')).toHaveText('Untreated');

  // Process all of the device's alarms at once, with a note.
  for (let i = 0; i < count; i++) await rows.nth(i).locator('.ant-checkbox-input').check();
  await page.getByTestId('alarm-process-selected').click();
  await page.getByTestId('alarm-process-note').fill('Cell replaced on site');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${count} ${count === 1 ? 'alarm' : 'alarms'} processed`)).toBeVisible();
  for (let i = 0; i < count; i++) {
    await expect(rows.nth(i).locator('[data-testid^="alarm-state-"]')).toHaveText('Processed');
    await expect(rows.nth(i)).toContainText('Cell replaced on site');
  }
  await expect.poll(async () => Number(await bell.getAttribute('data-count'))).toBe(before);
});

/** What a level tag shows: its word and its colours. */
const looks = (tag: Locator) =>
  tag.evaluate((el) => {
    const css = getComputedStyle(el);
    return { text: el.textContent, severity: el.getAttribute('data-severity'), color: css.color, background: css.backgroundColor };
  });

test.describe('at 1,280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a severe battery fault pops up by default and reads the same in the pop-up, the bell, the alarm list and the rule editor', async ({ page, session }) => {
    const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
    const bmu = types.body.data.find((t) => t.code === 'BMU')!;
    const sn = `SEV-${run}`;
    const added = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
      token: session.token,
      data: { name: `Severe rack ${run}`, sn, typeId: bmu.id },
    });
    expect(added.body.code, added.body.message).toBe(20000);

    let loggedIn = false;
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if ((JSON.parse(String(payload)) as { type: number }).type === 111) loggedIn = true;
      }),
    );
    await page.goto('/dashboard');
    await expect.poll(() => loggedIn, { timeout: 10_000 }).toBe(true);

    // The highest cell above 3.65 V for longer than the built-in rule's 10 s hold (device time).
    const auth = { authorization: `Basic ${Buffer.from(`${sn}:${added.body.data.secret}`).toString('base64')}` };
    for (const [ago, volts] of [[30, 3.6], [20, 3.71], [5, 3.72]] as const) {
      const res = await page.request.post(`${MAIN_URL}/api/v1/ingest/telemetry`, {
        headers: auth,
        data: { ts: Date.now() - ago * 1000, values: { '10000013': volts } },
      });
      expect((await res.json()).code).toBe(20000);
    }
    const alarms = await callApi<{ items: { id: number; level: number; messageEn: string }[] }>(
      page.request, 'GET', `/device/alarmlist?device=${sn}`, { token: session.token },
    );
    expect(alarms.body.data.items.map((a) => [a.messageEn, a.level])).toEqual([['Cell over-voltage', 4]]);
    const id = alarms.body.data.items[0]!.id;

    // The pop-up (the administrator never chose: levels 3–4 pop up).
    const popup = page.getByTestId(`alarm-notification-level-${id}`);
    await expect(popup).toBeVisible();
    await expect(page.locator('.ant-notification-notice', { has: popup })).toContainText(`Severe rack ${run}`);
    const expected = await looks(popup);
    expect(expected).toMatchObject({ text: '4 · Critical', severity: '4' });

    // The bell.
    await page.getByTestId('alarm-bell').click();
    await expect(await looks(page.getByTestId(`alarm-bell-level-${id}`))).toEqual(expected);
    await page.keyboard.press('Escape');

    // The alarm list, from the sidebar.
    const { sidebar, menuItem } = shell(page);
    await menuItem('Projects').click();
    await sidebar.getByTestId('sidebar-item-/project/alarminfo').click();
    await expect(page).toHaveURL(/\/project\/alarminfo$/);
    await page.getByTestId('alarm-filter-device').fill(sn);
    await page.getByTestId('filter-search').filter({ visible: true }).click();
    await expect(page.getByTestId(`alarm-level-${id}`)).toBeVisible();
    expect(await looks(page.getByTestId(`alarm-level-${id}`))).toEqual(expected);
    // At this width the columns an operator handles it by are on screen without scrolling sideways.
    await expect(page.getByTestId(`alarm-state-${id}`)).toBeInViewport();
    // Not even under the pinned Actions column: Processed ends where Actions begins.
    const header = (name: string) => page.getByTestId('table-alarms').getByRole('columnheader', { name, exact: true }).boundingBox();
    const [processed, actions] = [await header('Processed'), await header('Actions')];
    expect(processed!.x + processed!.width).toBeLessThanOrEqual(actions!.x + 1);

    // The legend says which end is severe.
    await page.getByTestId('severity-legend').first().hover();
    await expect(page.getByTestId('severity-legend-content')).toContainText('the higher, the more severe');

    // The rule that raised it, in the rule editor.
    await page.goto(`/device/setalarm?id=${bmu.id}`);
    const rows = page.getByTestId('alarm-settings').locator('[data-testid^="alarm-row-"]');
    await expect(rows.first()).toBeVisible();
    let rule: Locator | undefined;
    for (let i = 0; i < (await rows.count()); i++) {
      // The seeded rule's Chinese message (its English one, "Cell over-voltage", is in the expansion).
      if ((await rows.nth(i).getByTestId('field-message').inputValue()) === '单体过压') rule = rows.nth(i);
    }
    expect(rule, 'the built-in over-voltage rule').toBeDefined();
    expect(await looks(rule!.getByTestId('field-level').locator('[data-severity]'))).toEqual(expected);
  });
});
