/**
 * A device reports (HTTP uplink, docs/PROTOCOL.md) and the console shows it live: the device list
 * row turns online and its last-seen time follows each message without a reload, and the device
 * log says what was refused and why.
 */
import { callApi, expect, MAIN_URL, test } from './fixtures';

const run = Date.now().toString(36);

test('a device that reports comes online in the list live, its last-seen follows; its refused values are in the device log', async ({ page, session }) => {
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const bmu = types.body.data.find((t) => t.code === 'BMU')!;
  const sn = `LIVE-${run}`;
  const added = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
    token: session.token,
    data: { name: `Live rack ${run}`, sn, typeId: bmu.id },
  });
  expect(added.body.code, added.body.message).toBe(20000);

  // The page follows its rows on the live channel: wait for the server's DEVICES_SUBSCRIBED (141).
  const followed: number[][] = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const m = JSON.parse(String(payload)) as { type: number; deviceIds?: number[] };
      if (m.type === 141) followed.push(m.deviceIds ?? []);
    }),
  );
  await page.goto('/device/list');
  const row = page.getByTestId('table-devices').locator('tr.ant-table-row', { hasText: sn });
  // A busy shared machine can take 15 s to load the page and its list (seen in traces).
  await expect(row.getByTestId('online-tag')).toHaveText('Offline', { timeout: 30_000 });
  await expect.poll(() => followed.some((ids) => ids.includes(added.body.data.id)), { timeout: 10_000 }).toBe(true);

  const uplink = await page.request.post(`${MAIN_URL}/api/v1/ingest/telemetry`, {
    headers: { authorization: `Basic ${Buffer.from(`${sn}:${added.body.data.secret}`).toString('base64')}` },
    data: { values: { '02109001': 77, '01111001': 9999 } },
  });
  expect((await uplink.json()).data).toMatchObject({ accepted: 1, rejected: [{ reason: 'outOfRange', semaphoreId: '01111001' }] });

  // No reload: the row changes by itself, its last-seen cell too.
  await expect(row.getByTestId('online-tag')).toHaveText('Online', { timeout: 10_000 });
  const lastSeen = row.locator('time');
  await expect(lastSeen).toHaveCount(1, { timeout: 10_000 });
  const firstSeen = await lastSeen.getAttribute('datetime');
  const loads: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) loads.push(f.url());
  });

  // A second message a little later: the last-seen time moves on, still without a reload.
  await page.waitForTimeout(1100);
  const second = await page.request.post(`${MAIN_URL}/api/v1/ingest/telemetry`, {
    headers: { authorization: `Basic ${Buffer.from(`${sn}:${added.body.data.secret}`).toString('base64')}` },
    data: { values: { '02109001': 76 } },
  });
  expect((await second.json()).data).toMatchObject({ accepted: 1, rejected: [] });
  await expect
    .poll(async () => Date.parse((await lastSeen.getAttribute('datetime')) ?? ''), { timeout: 10_000 })
    .toBeGreaterThan(Date.parse(firstSeen ?? ''));
  expect(loads).toEqual([]);

  await page.goto('/sys/devlogs');
  await page.getByTestId('tab-device').click();
  const search = page.getByTestId('devicelog-filters');
  await search.getByTestId('filter-sn').fill(sn);
  await expect(search.getByTestId('filter-sn')).toHaveValue(sn);
  // The filtered page is what the table shows next: wait for the server's answer to this search
  // (a busy shared machine can take seconds), then read the rows.
  const answer = page.waitForResponse((r) => r.url().includes('/logs/devicelogs') && r.url().includes(`sn=${sn}`), { timeout: 30_000 });
  await search.getByTestId('filter-search').click();
  expect(((await (await answer).json()) as { code: number }).code).toBe(20000);
  const rejected = page.getByTestId('table-devicelogs').locator('tr.ant-table-row', { hasText: 'Rejected' });
  await expect(rejected).toContainText('Value out of range');
  await expect(rejected).toContainText('01111001');
  await expect(page.getByTestId('table-devicelogs').locator('tr.ant-table-row', { hasText: 'Online' })).toHaveCount(1);
});
