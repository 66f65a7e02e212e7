/**
 * The small map on the device details page, as the test servers run it (no MAP_TILE_URL): the
 * bundled world outline with a marker at the device's position, no map without a position or in
 * map mode 2, Leaflet loaded only for a map, and not one request leaving this machine.
 */
import type { Page } from '@playwright/test';
import { callApi, expect, MAIN_URL, test } from './fixtures';

const run = Date.now().toString(36);
const MAP_CHUNKS = /\/assets\/(vendor-leaflet|vendor-world|DeviceMap)-/;

/** Every request the page makes, for checks on where they went. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

/** Requests to anything but this machine's test server (data: and blob: URLs stay in the page). */
const leaving = (urls: string[]) =>
  urls.filter((u) => {
    const url = new URL(u);
    return !['data:', 'blob:'].includes(url.protocol) && url.hostname !== '127.0.0.1';
  });

test('the device map: offline outline and marker at the position, none without one, nothing from elsewhere', async ({ browser, page, session }) => {
  // A cold browser context on a busy machine loads the console slowly: generous waits below.
  test.setTimeout(180_000);
  const slow = { timeout: 30_000 };
  // The login page loads no map code.
  const anonymous = await browser.newContext();
  const loginPage = await anonymous.newPage();
  const loginRequests = recordRequests(loginPage);
  await loginPage.goto(`${MAIN_URL}/login`);
  await expect(loginPage.getByTestId('login-submit')).toBeVisible(slow);
  await loginPage.waitForLoadState('networkidle');
  expect(loginRequests.filter((u) => MAP_CHUNKS.test(u))).toEqual([]);
  expect(leaving(loginRequests)).toEqual([]);
  await anonymous.close();

  const requests = recordRequests(page);
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const typeId = types.body.data.find((t) => t.code === 'BMU')!.id;
  const add = async (suffix: string, extra: Record<string, unknown>) => {
    const res = await callApi<{ id: number }>(page.request, 'POST', '/device/add', {
      token: session.token,
      data: { name: `Map ${suffix} ${run}`, sn: `MAP-${suffix}-${run}`, typeId, ...extra },
    });
    expect(res.body.code, res.body.message).toBe(20000);
    return { id: res.body.data.id, name: `Map ${suffix} ${run}` };
  };
  const placed = await add('placed', { mapMode: 1, lng: 114.0579, lat: 22.5431 });
  const nowhere = await add('nowhere', {});
  const hidden = await add('hidden', { mapMode: 2, lng: -3.7038, lat: 40.4168 });

  // No position, or map mode 2 ("not on the map"): no map, and no map code loaded either.
  for (const device of [nowhere, hidden]) {
    await page.goto(`/project/info?id=${device.id}`);
    await expect(page.getByTestId('device-title')).toHaveText(device.name, slow);
    await expect(page.getByTestId('device-basic')).toBeVisible();
    await expect(page.getByTestId('device-map-slot')).toHaveCount(0);
  }
  await expect(page.getByTestId('device-position')).toHaveText('-3.703800, 40.416800');
  expect(requests.filter((u) => MAP_CHUNKS.test(u))).toEqual([]);

  // A position: the map, named for screen readers, with the coordinates still as text beside it.
  await page.goto(`/project/info?id=${placed.id}`);
  await expect(page.getByTestId('device-title')).toHaveText(placed.name, slow);
  const map = page.getByRole('region', { name: "Map of the device's position (114.057900, 22.543100)" });
  await expect(map).toBeVisible(slow);
  await expect(page.getByTestId('device-position')).toHaveText('114.057900, 22.543100');
  // The bundled outline is drawn (Natural Earth's countries: well over a hundred shapes) ...
  await expect.poll(() => map.locator('svg path').count(), slow).toBeGreaterThan(100);
  await expect(map).toContainText('Natural Earth');
  // ... with the marker at the device's position, where the map is centred.
  const marker = map.locator('path.device-map-marker');
  await expect(marker).toHaveCount(1);
  const box = (await map.boundingBox())!;
  const dot = (await marker.boundingBox())!;
  expect(Math.abs(dot.x + dot.width / 2 - (box.x + box.width / 2))).toBeLessThan(3);
  expect(Math.abs(dot.y + dot.height / 2 - (box.y + box.height / 2))).toBeLessThan(3);
  // Keyboard: the map takes the focus and its zoom buttons carry the UI language's names.
  await expect(map.getByRole('button', { name: 'Zoom in' })).toBeVisible();
  await map.focus();
  await expect(map).toBeFocused();

  await page.waitForLoadState('networkidle');
  expect(requests.filter((u) => MAP_CHUNKS.test(u)).length).toBeGreaterThan(0);
  expect(leaving(requests)).toEqual([]);
});
