/**
 * Live updates stay inside the user's subtree: a sub-user watching the device list sees its own
 * device come online without a reload, and never receives anything of a device outside its
 * subtree, not even when its socket asks for that device by id.
 */
import type { WebSocketRoute } from '@playwright/test';
import { callApi, createCompanyUser, expect, MAIN_URL, setTokenCookie, test } from './fixtures';

const run = Date.now().toString(36);

test('a sub-user gets live updates of devices in its subtree and never of others', async ({ page, context, session }) => {
  test.setTimeout(120_000);
  const types = await callApi<{ id: number; code: string }[]>(page.request, 'GET', '/devicetype/typeoptionslist', { token: session.token });
  const bmu = types.body.data.find((t) => t.code === 'BMU')!;
  const subToken = await createCompanyUser(page.request, `live-sub-${run}`, 'Sub-user-pass-1');

  // One device in the sub-user's subtree (in a project the administrator made for the sub-user),
  // one outside it (the administrator's own).
  const subId = (await callApi<{ id: number }>(page.request, 'GET', '/user/info', { token: subToken })).body.data.id;
  const project = await callApi<{ id: number }>(page.request, 'POST', '/project/addproject', {
    token: session.token,
    data: { name: `Sub-user site ${run}`, ownerId: subId },
  });
  expect(project.body.code, project.body.message).toBe(20000);
  const add = async (sn: string, projectId: number | null) => {
    const r = await callApi<{ id: number; secret: string }>(page.request, 'POST', '/device/add', {
      token: session.token,
      data: { name: `Rack ${sn}`, sn, typeId: bmu.id, projectId },
    });
    expect(r.body.code, r.body.message).toBe(20000);
    return { sn, ...r.body.data };
  };
  const mine = await add(`MINE-${run}`, project.body.data.id);
  const theirs = await add(`THEIRS-${run}`, null);
  const uplink = async (d: { sn: string; secret: string }, values: Record<string, number>) => {
    const res = await page.request.post(`${MAIN_URL}/api/v1/ingest/telemetry`, {
      headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
      data: { values },
    });
    expect(res.status()).toBe(200);
  };

  // The page's live socket, relayed so the test sees every frame and can speak on it too.
  const frames: { type: number; deviceId?: number; deviceIds?: number[] }[] = [];
  let server: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/api\/v1\/ws$/, (ws) => {
    const s = ws.connectToServer();
    server = s;
    ws.onMessage((m) => s.send(m));
    s.onMessage((m) => {
      frames.push(JSON.parse(String(m)) as (typeof frames)[number]);
      ws.send(m);
    });
  });
  await context.clearCookies();
  await setTokenCookie(context, subToken);
  await page.goto('/device/list');

  const table = page.getByTestId('table-devices');
  const row = table.locator('tr.ant-table-row', { hasText: mine.sn });
  await expect(row.getByTestId('online-tag')).toHaveText('Offline', { timeout: 30_000 });
  // The other user's device is not listed.
  await expect(table.locator('tr.ant-table-row', { hasText: theirs.sn })).toHaveCount(0);
  await expect.poll(() => frames.some((f) => f.type === 141 && f.deviceIds?.includes(mine.id)), { timeout: 15_000 }).toBe(true);

  // Asking for the foreign device by id on the page's own socket: the server leaves it out.
  server!.send(JSON.stringify({ type: 140, deviceIds: [mine.id, theirs.id] }));
  await expect.poll(() => frames.filter((f) => f.type === 141).at(-1)?.deviceIds).toEqual([mine.id]);

  await uplink(theirs, { '02109001': 12 });
  await uplink(mine, { '02109001': 77 });

  // No reload: the sub-user's row turns online by itself, from the live frames.
  await expect(row.getByTestId('online-tag')).toHaveText('Online', { timeout: 10_000 });
  await expect.poll(() => frames.some((f) => f.type === 150 && f.deviceId === mine.id)).toBe(true);
  await uplink(theirs, { '02109001': 13 });
  await uplink(mine, { '02109001': 78 });
  await expect.poll(() => frames.filter((f) => f.type === 150 && f.deviceId === mine.id).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  // Nothing of the foreign device ever reached this page: no values, no status.
  expect(frames.filter((f) => f.deviceId === theirs.id || f.deviceIds?.includes(theirs.id))).toEqual([]);
  await expect(table.locator('tr.ant-table-row', { hasText: theirs.sn })).toHaveCount(0);
});
