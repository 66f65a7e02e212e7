/**
 * Track playback (issue #35): a device sends GPS fixes over the API's HTTP uplink; the track
 * screen opens on them, draws the path with its start and end on the bundled basemap, plays it
 * back (the marker moves), scrubs by keyboard, shows the point under the cursor, the totals, and
 * downloads the track as CSV and GPX. A device without fixes shows the empty state. No request
 * leaves this machine.
 */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { callApi, expect, MAIN_URL, test } from './fixtures';

const run = Date.now().toString(36);
const FIXES = 40;

test('a device’s track: drawn, played back, scrubbed, hovered and downloaded', async ({ page, session }) => {
  test.setTimeout(180_000);
  const slow = { timeout: 30_000 };
  const outside: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['data:', 'blob:'].includes(url.protocol) && url.hostname !== '127.0.0.1') outside.push(r.url());
  });
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const typeId = types.body.data.find((t) => t.code === 'BMU')!.id;
  const add = async (sn: string) => {
    const res = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', { token: session.token, data: { name: `Truck ${sn}`, sn, typeId } });
    expect(res.body.code, res.body.message).toBe(20000);
    return res.body.data;
  };
  const sn = `TRK-${run}`;
  const truck = await add(sn);
  // The device's own uplink (HTTP Basic with its SN and secret): a drive east, one fix every 30 s.
  const auth = `Basic ${Buffer.from(`${sn}:${truck.secret}`).toString('base64')}`;
  const t0 = Date.now() - 2 * 3_600_000;
  for (let i = 0; i < FIXES; i++) {
    const res = await page.request.post(`${MAIN_URL}/api/v1/ingest/gps`, {
      headers: { authorization: auth },
      data: { ts: t0 + i * 30_000, lng: 121.47 + i * 0.002, lat: 31.23 + 0.001 * Math.sin(i / 4), speed: 24 + (i % 5), direction: 90, pdop: 1.1, satellites: 9 },
    });
    expect((await res.json()).code).toBe(20000);
  }

  // From the device's details page to the track screen, opened on the day with the fixes (the
  // device list's actions stay within 1,280 px: tables.spec.ts).
  await page.goto(`/project/info?id=${truck.id}`);
  await page.getByTestId('device-track').click(slow);
  await expect(page).toHaveURL(new RegExp(`/device/track\\?id=${truck.id}$`));
  const map = page.getByRole('region', { name: "Map of the device's track" });
  await expect(map).toBeVisible(slow);
  await expect.poll(() => map.locator('svg path').count(), slow).toBeGreaterThan(100); // the bundled outline
  await expect(map.locator('path.track-path')).toHaveCount(1);
  await expect(map.locator('path.track-start')).toHaveCount(1);
  await expect(map.locator('path.track-end')).toHaveCount(1);
  await expect(map).toContainText('Natural Earth');
  await expect(page.getByTestId('track-points')).toHaveText(`All ${FIXES} fixes drawn`);
  // 39 legs of 0.002° of longitude at 31.23° N: about 7.4 km.
  await expect(page.getByTestId('track-distance')).toHaveText(/^7\.\d\d\s+km$/);

  // Playback moves the marker.
  const marker = map.locator('path.track-playback-marker');
  await expect(marker).toHaveCount(1);
  const before = await marker.getAttribute('d');
  const timeBefore = await page.getByTestId('track-time').textContent();
  await page.getByTestId('track-play').click();
  await expect.poll(() => marker.getAttribute('d'), slow).not.toBe(before);
  await page.getByTestId('track-pause').click();
  await expect(page.getByTestId('track-time')).not.toHaveText(timeBefore!);

  // Scrubbing by keyboard: End takes the playback to the last fix.
  const handle = page.getByRole('slider', { name: 'Playback time' });
  await handle.focus();
  await handle.press('End');
  const last = new Date(t0 + (FIXES - 1) * 30_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const lastText = `${last.getFullYear()}-${pad(last.getMonth() + 1)}-${pad(last.getDate())} ${pad(last.getHours())}:${pad(last.getMinutes())}:${pad(last.getSeconds())}`;
  await expect(page.getByTestId('track-time')).toHaveText(lastText);
  const point = page.getByTestId('track-point');
  await expect(point).toContainText(lastText);
  await expect(point).toContainText(/28\.0\s+km\/h/); // speed of fix 39: 24 + 39 % 5

  // The point under the cursor: over the start marker, the first fix.
  const start = (await map.locator('path.track-start').boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await expect(page.getByTestId('track-point-kind')).toHaveText('Point under the cursor');
  await expect(point).toContainText(/Distance so far\s*0\.00\s+km/);

  // No critical or serious accessibility findings on the filled screen.
  const axe = await new AxeBuilder({ page }).include('[data-testid="track-page"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => v.id)).toEqual([]);

  // Downloads: CSV and GPX of every fix of the range.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('track-export-csv').click()]);
  expect(csv.suggestedFilename()).toMatch(new RegExp(`^track-${sn}-\\d{4}-\\d\\d-\\d\\d\\.csv$`));
  const csvLines = fs.readFileSync((await csv.path())!, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
  expect(csvLines[0]).toBe('time,lng,lat,speed_kmh,direction_deg,pdop,satellites,distance_m');
  expect(csvLines).toHaveLength(FIXES + 1);
  const [gpx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('track-export-gpx').click()]);
  expect(gpx.suggestedFilename()).toMatch(/\.gpx$/);
  const xml = fs.readFileSync((await gpx.path())!, 'utf8');
  expect(xml.startsWith('<?xml')).toBe(true);
  expect(xml.match(/<trkpt /g)).toHaveLength(FIXES);

  // A device without fixes: the empty state, not an empty map.
  const idle = await add(`TRK-IDLE-${run}`);
  await page.goto(`/device/track?id=${idle.id}`);
  await expect(page.getByTestId('track-empty')).toContainText('No GPS fixes in this time range', slow);
  await expect(page.getByTestId('track-map')).toHaveCount(0);

  expect(outside).toEqual([]);
});
