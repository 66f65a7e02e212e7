/**
 * The device details page with a simulated battery (the fleet simulator's BMU model over the HTTP
 * uplink): values change live, a parameter set from the page is confirmed by the device itself,
 * and a week of history is drawn and zoomed (the zoomed window is fetched again from the server).
 */
import { startFleet, type Fleet } from '../../simulator/src/fleet';
import { callApi, expect, MAIN_URL, test } from './fixtures';

const run = Date.now().toString(36);
const SOC = '02109001';
const PACK_VOLTAGE = '01111001';

let fleet: Fleet | undefined;
test.afterEach(async () => {
  await fleet?.stop();
  fleet = undefined;
});

test('a simulated device: live values, a confirmed parameter change, a week of history zoomed', async ({ page, session }) => {
  test.setTimeout(120_000);
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const bmu = types.body.data.find((t) => t.code === 'BMU')!;
  const sn = `DET-${run}`;
  const name = `Pack ${run}`;
  const added = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
    token: session.token,
    data: { name, sn, typeId: bmu.id },
  });
  expect(added.body.code, added.body.message).toBe(20000);
  const { id, secret } = added.body.data;

  // A week of history: one message every ~80 minutes over the last 6.5 days.
  const auth = { authorization: `Basic ${Buffer.from(`${sn}:${secret}`).toString('base64')}` };
  const now = Date.now();
  for (let i = 0; i < 120; i++) {
    const ts = now - 6.5 * 86_400_000 + i * 80 * 60_000;
    const values = { [PACK_VOLTAGE]: 52 + 2 * Math.sin(i / 6), [SOC]: 20 + ((i * 7) % 70) };
    for (;;) {
      const res = await page.request.post(`${MAIN_URL}/api/v1/ingest/telemetry`, { headers: auth, data: { ts, values } });
      const code = (await res.json()).code as number;
      if (code === 20000) break;
      expect(code).toBe(42900);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  // The device comes alive: two messages a second, answering commands it receives.
  fleet = await startFleet({ devices: [{ sn, secret }], rate: 2, transport: { kind: 'http', api: MAIN_URL }, track: false, faultsPerHour: 0 });

  // From the device list, by the device's name.
  await page.goto('/device/list');
  await page.getByTestId(`device-link-${id}`).click();
  await expect(page).toHaveURL(new RegExp(`/project/info\\?id=${id}$`));
  await expect(page.getByTestId('device-title')).toHaveText(name);
  await expect(page.getByTestId('tag-/project/info')).toContainText(name);
  await expect(page.getByTestId('device-online')).toHaveText('Online');
  // Enabled, and what its status message reported about itself (firmware…).
  await expect(page.getByTestId('device-enabled')).toHaveText('Enabled');
  await expect(page.getByTestId('device-disabled')).toHaveCount(0);
  await expect(page.getByTestId('device-reported-info')).toContainText('firmware: sim-1.0');

  // Live: the pack voltage changes without a reload.
  const voltage = page.getByTestId(`value-${PACK_VOLTAGE}`);
  await expect(voltage).toContainText('V');
  const first = await voltage.textContent();
  await expect.poll(() => voltage.textContent(), { timeout: 15_000 }).not.toBe(first);
  await expect(page.getByTestId('pack-view')).toBeVisible();

  // The Alarms tab lists this device's alarms only (the alarm feature's table, composed by the app).
  await page.getByRole('tab', { name: 'Alarms' }).click();
  await expect(page.getByTestId('page-alarms')).toBeVisible();
  await expect(page.getByTestId('alarm-summary')).toBeVisible();
  await expect(page.getByTestId('alarm-device-filter')).toHaveCount(0);

  // Set the charge switch off: the device confirms it.
  await page.getByRole('tab', { name: 'Set parameters' }).click();
  const form = page.getByTestId('set-params-form');
  await form.getByRole('combobox').first().click();
  await page.locator('.ant-select-dropdown:visible').getByText('Off', { exact: true }).click();
  await page.getByTestId('set-params-send').click();
  await page.getByTestId('command-confirm-ok').click();
  await expect(page.getByTestId('set-params-result')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('command-history').locator('tr.ant-table-row').first()).toContainText('Succeeded');
  await expect(page.getByTestId('command-history').locator('tr.ant-table-row').first()).toContainText('Charge switch = Off');

  // History over a week, then zoom: the zoomed window is fetched again.
  await page.getByRole('tab', { name: 'History' }).click();
  await page.getByTestId('history-presets').getByText('Last 7 days').click();
  const chart = page.getByTestId('history-chart');
  await expect(chart).toHaveAttribute('data-loading', 'false');
  await expect(chart).not.toHaveAttribute('data-points', '');
  await expect(page.getByTestId('history-table').locator('tr.ant-table-row').first()).toBeVisible();
  const before = await page.getByTestId('chart-window').textContent();
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/device/devicehistoricallisttoecharts')) requests.push(r.url());
  });
  // The wheel must land on the plot: bring the whole chart into the viewport first.
  await chart.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -300);
  await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
  await expect(page.getByTestId('chart-window')).not.toHaveText(before ?? '');
  await expect(page.getByTestId('chart-reset-zoom')).toBeEnabled();
  const zoomed = new URL(requests.at(-1)!);
  const span = Date.parse(zoomed.searchParams.get('to')!) - Date.parse(zoomed.searchParams.get('from')!);
  expect(span).toBeLessThan(7 * 86_400_000 * 0.9);
});
