/**
 * The fleet map and a project's map (issue #35), as the test servers run them (no MAP_TILE_URL):
 * the bundled world outline, devices clustered and coloured, a popup with a link to details, the
 * filters, one project's map from the project list with its road sections drawn and deleted
 * there, and not one request leaving this machine.
 */
import type { Page } from '@playwright/test';
import { callApi, expect, MAIN_URL, pickOption, test } from './fixtures';

const run = Date.now().toString(36);

/** Requests to anything but this machine's test server (data: and blob: URLs stay in the page). */
function leaving(page: Page): () => string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return () =>
    urls.filter((u) => {
      const url = new URL(u);
      return !['data:', 'blob:'].includes(url.protocol) && url.hostname !== '127.0.0.1';
    });
}

test('the fleet map: offline outline, clusters and markers, popup, filters and a project’s map', async ({ page, session }) => {
  test.setTimeout(180_000);
  const slow = { timeout: 30_000 };
  const outside = leaving(page);
  // The server's DEVICES_SUBSCRIBED (141) answers: which devices the page follows live.
  const followed: number[][] = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const m = JSON.parse(String(payload)) as { type: number; deviceIds?: number[] };
      if (m.type === 141) followed.push(m.deviceIds ?? []);
    }),
  );
  const token = session.token;
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token });
  const typeId = types.body.data.find((t) => t.code === 'BMU')!.id;
  const project = async (name: string, map: boolean) => {
    const r = await callApi<{ id: number }>(page.request, 'POST', '/project/addproject', { token, data: { name, map } });
    expect(r.body.code, r.body.message).toBe(20000);
    return r.body.data.id;
  };
  const harbour = await project(`Harbour ${run}`, true);
  const hidden = await project(`Hidden ${run}`, false);
  const add = async (suffix: string, projectId: number, lng: number, lat: number) => {
    const sn = `FLEET-${suffix}-${run}`;
    const r = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
      token,
      data: { name: `Fleet ${suffix} ${run}`, sn, typeId, projectId, mapMode: 1, lng, lat },
    });
    expect(r.body.code, r.body.message).toBe(20000);
    secrets.set(r.body.data.id, `Basic ${Buffer.from(`${sn}:${r.body.data.secret}`).toString('base64')}`);
    return r.body.data.id;
  };
  const secrets = new Map<number, string>();
  // Five devices a few hundred metres apart in Shenzhen (one cluster at country scale), one in
  // Madrid, and one in a project whose map is off.
  for (let i = 0; i < 5; i++) await add(`sz${i}`, harbour, 114.05 + i * 0.004, 22.54);
  const madrid = await add('mad', harbour, -3.7038, 40.4168);
  await add('off', hidden, 2.35, 48.86);

  // A project's map, from the project list: that project's devices only.
  await page.goto(`/project/index?name=${encodeURIComponent(`Harbour ${run}`)}`);
  await page.getByTestId(`row-map-${harbour}`).click();
  await expect(page).toHaveURL(new RegExp(`/project/map\\?projectId=${harbour}$`));
  const map = page.getByRole('region', { name: `Map of Harbour ${run}` });
  await expect(map).toBeVisible(slow);
  await expect(page.getByTestId('fleet-count')).toHaveText('6 of 6 devices', slow);
  // The bundled outline (Natural Earth: well over a hundred shapes) and its attribution.
  await expect.poll(() => map.locator('svg path').count(), slow).toBeGreaterThan(100);
  await expect(map).toContainText('Natural Earth');
  await expect(map).toHaveAttribute('data-fallback', 'outline');
  // Framed on the devices: Shenzhen's five are one cluster, Madrid its own marker.
  const cluster = map.locator('.fleet-cluster');
  await expect(cluster).toHaveCount(1);
  await expect(cluster).toHaveText('5');
  await expect(cluster).toHaveAttribute('title', '5 devices: zoom in');
  const madridMarker = map.locator(`.fleet-device:has([data-device="${madrid}"])`);
  await expect(madridMarker).toHaveAttribute('title', `Device ${madrid}: Offline`);

  // A device's popup: its name and SN, its state and a link to its details.
  await madridMarker.click();
  const popup = page.getByTestId('fleet-popup');
  await expect(popup.getByTestId('device-brief')).toContainText(`Fleet mad ${run}`, slow);
  await expect(popup).toContainText(`FLEET-mad-${run}`);
  await expect(popup).toContainText('Offline');
  await expect(popup.getByTestId('fleet-popup-details')).toHaveAttribute('href', `/project/info?id=${madrid}`);
  await expect(page.locator('.leaflet-popup-close-button')).toHaveAttribute('aria-label', 'Close');

  // Live: the device drawn on its own is followed; it sends a message and its marker turns online.
  // The message waits for the server's word that Madrid is followed: one sent before would reach
  // the page only through the 15 s refetch.
  await expect.poll(() => followed.at(-1)?.includes(madrid) ?? false, slow).toBe(true);
  const sent = await page.request.post(`${MAIN_URL}/api/v1/ingest/telemetry`, {
    headers: { authorization: secrets.get(madrid)! },
    data: { values: { '02109001': 77 } },
  });
  expect((await sent.json()).code).toBe(20000);
  await expect(madridMarker).toHaveAttribute('title', `Device ${madrid}: Online`, slow);

  // A cluster zooms in on click, to where it splits.
  await cluster.click();
  await expect.poll(async () => map.locator('.fleet-device, .fleet-cluster').count(), slow).toBeGreaterThan(1);

  // The state filter: only Madrid is online (in the answer refetched after the live news, or
  // as the live message set it).
  await pickOption(page, page.getByTestId('fleet-filter-state'), 'Offline');
  await expect(page.getByTestId('fleet-count')).toHaveText('5 of 6 devices');
  await pickOption(page, page.getByTestId('fleet-filter-state'), 'Online');
  await expect(page.getByTestId('fleet-count')).toHaveText('1 of 6 devices');

  // Road sections: drawn on the project's map by clicking points, saved, shown, deleted.
  await page.getByTestId('road-draw').click();
  const box = (await map.boundingBox())!;
  for (const [x, y] of [[0.3, 0.4], [0.5, 0.55], [0.7, 0.45]] as const) {
    await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
  }
  await expect(page.getByTestId('road-draw-hint')).toContainText('3 points so far');
  await expect(map.locator('path.road-draft')).toHaveCount(1);
  await page.getByTestId('road-draw-finish').click();
  const form = page.getByTestId('road-form');
  await expect(form.getByTestId('point-lng-2')).toBeVisible();
  await form.getByTestId('field-name').fill(`Quay road ${run}`);
  await page.getByTestId('road-submit').click();
  await expect(map.locator('path.road-section')).toHaveCount(1, slow);
  const list = page.getByTestId('road-map-list');
  await expect(list).toContainText(`Quay road ${run}`);
  await expect(list).toContainText('3 points');
  const roads = await callApi<{ items: { id: number; points: [number, number][] }[] }>(page.request, 'GET', `/project/roadsectionlist?projectId=${harbour}`, { token });
  expect(roads.body.data.items).toHaveLength(1);
  const road = roads.body.data.items[0]!;
  expect(road.points).toHaveLength(3);
  await page.getByTestId(`road-delete-${road.id}`).click();
  await page.getByTestId('confirm-ok').click();
  await expect(map.locator('path.road-section')).toHaveCount(0, slow);
  await expect(list).not.toContainText(`Quay road ${run}`);

  // The fleet map (the sidebar's): every project with a map on, not the one whose map is off.
  await page.goto('/project/map');
  const fleet = page.getByRole('region', { name: 'Device map' });
  await expect(fleet).toBeVisible(slow);
  await expect(page.getByTestId('fleet-count')).toHaveText(/of \d+ devices/, slow);
  const answer = await callApi<{ ids: number[]; project: number[] }>(page.request, 'GET', '/map/positions', { token });
  expect(answer.body.data.project).not.toContain(hidden);
  expect(answer.body.data.ids).toContain(madrid);
  await expect.poll(() => fleet.locator('.fleet-device, .fleet-cluster').count(), slow).toBeGreaterThan(0);

  await page.waitForLoadState('networkidle');
  expect(outside()).toEqual([]);
  expect(MAIN_URL).toContain('127.0.0.1');
});

test('tiles that fail to load: the bundled outline shows under them, with the tiles’ attribution', async ({ page, session }) => {
  test.setTimeout(120_000);
  const slow = { timeout: 30_000 };
  expect(session.token).toBeTruthy();
  const outside = leaving(page);
  // The server as if MAP_TILE_URL named a tile server that answers nothing (same origin: the CSP
  // allows it, and every tile is a 404).
  await page.route('**/api/v1/config', async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { data: { map: Record<string, unknown> } };
    json.data.map = { tileUrl: '/no-tiles-here/{z}/{x}/{y}.png', tileAttribution: '© Example tiles', tileDatum: 'wgs84' };
    await route.fulfill({ response, json });
  });
  const tiles: string[] = [];
  page.on('requestfailed', (r) => (r.url().includes('/no-tiles-here/') ? tiles.push(r.url()) : undefined));
  page.on('response', (r) => (r.url().includes('/no-tiles-here/') ? tiles.push(r.url()) : undefined));
  await page.goto('/project/map');
  const map = page.getByRole('region', { name: 'Device map' });
  await expect(map).toBeVisible(slow);
  await expect.poll(() => tiles.length, slow).toBeGreaterThan(0);
  await expect(map).toHaveAttribute('data-fallback', 'outline', slow);
  await expect.poll(() => map.locator('svg path').count(), slow).toBeGreaterThan(100);
  await expect(map).toContainText('© Example tiles');
  await expect(map).toContainText('Natural Earth');
  expect(outside()).toEqual([]);
});
