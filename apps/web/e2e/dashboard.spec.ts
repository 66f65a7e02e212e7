/**
 * The home dashboard (issue #34) in Chromium against the real server: each style with data (the
 * administrator's fleet, seeded through the API and a simulated battery unit over HTTP) and
 * empty (a new company account without devices); an alarm raised by the simulated device changes
 * the counts on an open dashboard within 2 s without reload (live message 170); the style switch
 * persists over a reload; no horizontal scrolling at 1,280 px nor on a 390 px phone; the time until
 * the page is interactive is printed.
 */
import { loadavg } from 'node:os';
import { BmuModel, type Uplink } from '@iot/sim-model';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiLogin, callApi, createCompanyUser, expect, MAIN_URL, setTokenCookie, test, trackLiveChannel } from './fixtures';

const run = Date.now().toString(36);
// A cold first visit on a loaded shared machine takes tens of seconds.
test.describe.configure({ timeout: 180_000 });

/** The model's messages up to and including its first device alarm (deterministic by seed). */
function untilAlarm(sn: string, seed = 7): Uplink[] {
  const start = Date.now() - 3_600_000;
  const bmu = new BmuModel({ sn, now: start, seed, faultsPerHour: 60, track: false });
  const out: Uplink[] = [];
  for (let i = 1; i < 50_000; i++) {
    const m = bmu.next(start + i * 1000);
    out.push(m);
    if (m.kind === 'alarm') return out;
  }
  throw new Error('the model tripped no fault');
}

async function addBmu(request: APIRequestContext, token: string, sn: string, extra: object = {}) {
  const types = await callApi<{ id: number; code: string }[]>(request, 'GET', '/devicetype/typeoptionslist', { token });
  const bmu = types.body.data.find((t) => t.code === 'BMU')!;
  const added = await callApi<{ id: number; secret: string }>(request, 'POST', '/device/add', {
    token,
    data: { name: `Home rack ${sn}`, sn, typeId: bmu.id, ...extra },
  });
  expect(added.body.code, added.body.message).toBe(20000);
  return added.body.data;
}

async function send(request: APIRequestContext, sn: string, secret: string, messages: Uplink[]) {
  const auth = { authorization: `Basic ${Buffer.from(`${sn}:${secret}`).toString('base64')}` };
  for (const m of messages) {
    const res = await request.post(`${MAIN_URL}/api/v1/ingest/${m.kind}`, { headers: auth, data: m.body });
    expect((await res.json()).code).toBe(20000);
  }
}

const value = async (page: Page, testId: string) => Number(await page.getByTestId(testId).getAttribute('data-value'));

/** True when the page scrolls sideways (it must not). */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

async function setStyle(request: APIRequestContext, token: string, dashboardStyle: 'default' | 'battery' | 'voice') {
  const res = await callApi(request, 'POST', '/user/preferences', { token, data: { dashboardStyle } });
  expect(res.body.code, res.body.message).toBe(20000);
}

test.describe('with a fleet', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test.beforeAll(async ({ playwright }) => {
    // A fleet of its own: one unit that tripped a fault and calls a phone, one quiet unit.
    const request = await playwright.request.newContext();
    const token = await apiLogin(request);
    const faulty = await addBmu(request, token, `HOMEF-${run}`, { alarmPhone: '+34 600 000 001' });
    await send(request, `HOMEF-${run}`, faulty.secret, untilAlarm(`HOMEF-${run}`).slice(-4));
    // A fixed unit in a project with its map on: the dashboard shows the fleet map card.
    const project = await callApi<{ id: number }>(request, 'POST', '/project/addproject', { token, data: { name: `Home map ${run}` } });
    await addBmu(request, token, `HOMEM-${run}`, { projectId: project.body.data.id, mapMode: 1, lng: 2.1734, lat: 41.3851 });
    const quiet = await addBmu(request, token, `HOMEQ-${run}`);
    await send(request, `HOMEQ-${run}`, quiet.secret, untilAlarm(`HOMEQ-${run}`, 11).filter((m) => m.kind !== 'alarm').slice(-2));
    await request.dispose();
  });

  test.afterEach(async ({ request, session }) => {
    // Other specs open the administrator's dashboard: leave it in the default style.
    await setStyle(request, session.token, 'default');
  });

  test('default style: the figures, the trend and the lists, interactive fast, no sideways scrolling', async ({ page, session }) => {
    await setStyle(page.request, session.token, 'default');
    // The first visit loads the console's code (a cold cache; slow on a loaded machine): printed.
    let started = Date.now();
    await page.goto('/dashboard');
    await expect(page.getByTestId('home-devices-total')).toBeVisible({ timeout: 60_000 });
    const cold = Date.now() - started;
    // Interactive: the figures are on screen and the quick filter answers a click.
    started = Date.now();
    await page.reload();
    await expect(page.getByTestId('home-devices-total')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('home-device-filter').getByText('Alarming').click();
    await expect(page.getByTestId('home-device-filter').locator('.ant-segmented-item-selected')).toHaveText('Alarming');
    const interactive = Date.now() - started;
    console.log(`dashboard: interactive ${interactive} ms after navigation with the browser's cache, ${cold} ms cold (load ${loadavg()[0]!.toFixed(1)})`);
    // A generous bound only: timings on this shared 2-core machine are noisy (bench/README.md).
    expect(interactive).toBeLessThan(10_000);

    expect(await value(page, 'home-devices-total')).toBeGreaterThanOrEqual(2);
    expect(await value(page, 'home-alarms-total')).toBeGreaterThanOrEqual(1);
    expect(await value(page, 'home-devices-alarming')).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('home-levels-table').getByRole('row')).toHaveCount(5);
    // The trend draws its bars, with its figures in a table for screen readers.
    await expect(page.getByTestId('home-trend-chart-drawing')).toBeVisible();
    await expect(page.getByTestId('home-trend-chart-table')).toBeAttached();
    await expect(page.getByTestId('home-top-devices').getByRole('link').first()).toBeVisible();
    await expect(page.getByTestId('home-device-list').locator('[data-testid^="home-device-"][href]').first()).toBeVisible();
    // The fleet map card (a project with its map on has a device with a position), offline basemap.
    // Its code and positions load when it scrolls into view.
    await page.getByTestId('home-fleet-map-slot').scrollIntoViewIfNeeded();
    const fleetCard = page.getByTestId('home-fleet-map');
    await expect(fleetCard.getByTestId('fleet-map')).toBeVisible();
    await expect(fleetCard.getByTestId('fleet-map-open')).toHaveAttribute('href', '/project/map');
    expect(await scrollsSideways(page)).toBe(false);

    // A card leads to its list with the matching filter: "alarming" lists exactly those devices.
    const alarming = await value(page, 'home-devices-alarming');
    await page.getByTestId('home-devices-alarming').click();
    await expect(page).toHaveURL(/\/device\/list\?alarming=true/);
    await expect(page.getByTestId('filter-level')).toContainText('Any alarm');
    await expect(page.getByTestId('table-devices').locator('tr.ant-table-row')).toHaveCount(Math.min(alarming, 20));
    await page.goBack();
    await page.getByTestId('home-devices-online').click();
    await expect(page).toHaveURL(/\/device\/list\?online=true$/);
  });

  test('an alarm raised by a simulated device changes the counts within 2 s without reload', async ({ page, session }) => {
    const sn = `HOMEL-${run}`;
    const device = await addBmu(page.request, session.token, sn);
    const messages = untilAlarm(sn, 3);
    // Online before the page opens: only the alarm changes the figures afterwards.
    await send(page.request, sn, device.secret, messages.slice(-3, -1));
    const liveChannel = trackLiveChannel(page);
    await page.goto('/dashboard');
    await expect(page.getByTestId('home-alarms-total')).toBeVisible({ timeout: 60_000 });
    await expect.poll(() => liveChannel.loggedIn, { timeout: 10_000 }).toBe(true);
    const before = await value(page, 'home-alarms-total');
    const alarmingBefore = await value(page, 'home-devices-alarming');

    await send(page.request, sn, device.secret, messages.slice(-1));
    const sent = Date.now();
    await expect.poll(() => value(page, 'home-alarms-total'), { timeout: 2_000, intervals: [50] }).toBeGreaterThan(before);
    console.log(`dashboard: alarm counted ${Date.now() - sent} ms after the device's message was stored`);
    expect(await value(page, 'home-devices-alarming')).toBeGreaterThanOrEqual(alarmingBefore);
  });

  test('the style switch persists over a reload; battery and voice show their figures', async ({ page, session }) => {
    await setStyle(page.request, session.token, 'default');
    await page.goto('/dashboard');
    await expect(page.getByTestId('home-style-default')).toBeVisible({ timeout: 60_000 });

    await page.getByTestId('dashboard-style').getByText('Battery').click();
    await expect(page.getByTestId('home-style-battery')).toBeVisible();
    await expect.poll(async () => (await callApi<{ dashboardStyle: string }>(page.request, 'GET', '/user/info', { token: session.token })).body.data.dashboardStyle).toBe('battery');
    await page.reload();
    await expect(page.getByTestId('dashboard')).toHaveAttribute('data-style', 'battery');
    await expect(page.getByTestId('home-style-battery')).toBeVisible();
    await expect(page.getByTestId('home-soc')).toBeVisible();
    await expect(page.getByTestId('home-lowest-soc-list').getByRole('link').first()).toBeVisible();
    const states = ['charging', 'discharging', 'idle', 'unknown'];
    let packs = 0;
    for (const s of states) packs += await value(page, `home-battery-${s}`);
    expect(packs).toBeGreaterThanOrEqual(2);
    expect(await scrollsSideways(page)).toBe(false);

    await page.getByTestId('dashboard-style').getByText('Voice').click();
    await expect(page.getByTestId('home-style-voice')).toBeVisible();
    expect(await value(page, 'home-voice-devices')).toBeGreaterThanOrEqual(1);
    // No SIM card of this fleet has voice data: unknown, never 0.
    await expect(page.getByTestId('home-voice-minutes-unknown')).toContainText('Unknown');
    await page.reload();
    await expect(page.getByTestId('home-style-voice')).toBeVisible();
    expect(await scrollsSideways(page)).toBe(false);
  });
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('each style reflows without sideways scrolling', async ({ page, session }) => {
    for (const style of ['default', 'battery', 'voice'] as const) {
      await setStyle(page.request, session.token, style);
      await page.goto('/dashboard');
      await expect(page.getByTestId(`home-style-${style}`)).toBeVisible({ timeout: 60_000 });
      await expect(page.getByTestId('home-devices-total')).toBeVisible();
      expect(await scrollsSideways(page), style).toBe(false);
    }
    await setStyle(page.request, session.token, 'default');
  });
});

test('without devices each style says what to do next', async ({ page, context }) => {
  const token = await createCompanyUser(page.request, `homeempty${run}`, 'home-empty-pass-1');
  await setTokenCookie(context, token);
  for (const style of ['default', 'battery', 'voice'] as const) {
    await setStyle(page.request, token, style);
    await page.goto('/dashboard');
    const empty = page.getByTestId('home-empty');
    await expect(empty).toBeVisible({ timeout: 60_000 });
    await expect(empty).toContainText('No devices yet');
    await expect(empty.getByTestId('home-empty-demo')).toContainText('DEMO=1');
    await expect(page.getByTestId(`home-style-${style}`)).toHaveCount(0);
  }
  // "Add a device" opens the device list's add drawer.
  const add = page.getByTestId('home-empty-add');
  if (await add.isVisible()) {
    await add.click();
    await expect(page).toHaveURL(/\/device\/list$/);
    await expect(page.locator('.ant-drawer-open')).toBeVisible();
  }
});
