import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveType, type LiveServerMessage } from '@iot/contract';
import { LIVE_LIMITS } from '../src/plugins/realtime.js';
import { addTestDevice, buildTestApp, type TestApp } from './helpers.js';
import { connectLive, type LiveTestClient } from './live-client.js';

type Subscribed = Extract<LiveServerMessage, { type: typeof LiveType.DEVICES_SUBSCRIBED }>;

/**
 * Per-socket budgets of the live channel (issue #32 part 2): one signed-in user cannot stall the
 * console with follow requests. bench/live-flood.ts measures GET /config beside the same flood.
 */
describe('live channel budgets per socket and user', () => {
  let t: TestApp;
  let url: string;
  let token: string;
  let typeId: number;
  let seq = 0;
  const sockets: LiveTestClient[] = [];
  const limits = { socketsPerUser: 3, devicesPerSocket: 4 };

  const signedIn = async (who = { id: 1, token: '' }) => {
    const c = connectLive(url);
    sockets.push(c);
    await c.open();
    c.send({ type: LiveType.LOGIN, userId: who.id, token: who.token || token, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK) || c.closed() !== undefined);
    return c;
  };
  const subscribed = (c: LiveTestClient) => c.received.filter((m): m is Subscribed => m.type === LiveType.DEVICES_SUBSCRIBED);
  const devices = async (n: number) => {
    const out: { id: number; sn: string }[] = [];
    for (let i = 0; i < n; i++) out.push(await addTestDevice(t.app, token, typeId, `LB-${++seq}`));
    return out;
  };
  const report = async (d: { sn: string }, value: number) => {
    const dev = await t.app.ingest.deviceOf(d.sn);
    await t.app.ingest.uplink(dev!, 'telemetry', { values: { '01111001': value } });
  };

  beforeAll(async () => {
    t = await buildTestApp({ API_RATE_LIMIT: '0' }, { liveLimits: limits });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/ws`;
    token = await t.login();
    const types = (await t.app.inject({ method: 'GET', url: '/api/v1/devicetype/typeoptionslist', headers: { authorization: `Bearer ${token}` } })).json();
    typeId = (types.data as { id: number; code: string }[]).find((x) => x.code === 'BMU')!.id;
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.close();
    await t.close();
  });

  it('a flood of 2,000 follow requests costs a few lookups and ends following the last request', async () => {
    const all = await devices(6);
    const ids = all.map((d) => d.id);
    const c = await signedIn();
    const before = t.app.realtime.queries().follow;
    const started = Date.now();
    const last = [ids[5]!, ids[4]!];
    for (let i = 0; i < 1999; i++) c.send({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: [ids[i % 4]!, ids[(i + 1) % 4]!, 10_000_000 + i] });
    c.send({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: last });
    await c.until(() => subscribed(c).some((m) => [...m.deviceIds].sort().join() === [...last].sort().join()), 10_000);
    const seconds = (Date.now() - started) / 1000;
    const lookups = t.app.realtime.queries().follow - before;
    // The token bucket bounds them: its burst, then its rate over the time the flood took.
    expect(lookups).toBeGreaterThanOrEqual(1);
    expect(lookups).toBeLessThanOrEqual(LIVE_LIMITS.followBurst + Math.ceil(seconds * LIVE_LIMITS.followPerSecond) + 1);
    // Superseded lookups are not answered; the last request's is the last answer.
    await c.pinged();
    expect(subscribed(c).length).toBeLessThanOrEqual(lookups);
    expect([...subscribed(c).at(-1)!.deviceIds].sort()).toEqual([...last].sort());
    // And it is what the socket follows: a device of the earlier requests reports first, one of
    // the last request after it; only the second arrives.
    await report(all[0]!, 1);
    await report(all[5]!, 2);
    await c.until(() => c.received.some((m) => m.type === LiveType.DEVICE_VALUES && m.deviceId === ids[5]));
    expect(c.received.filter((m) => (m.type === LiveType.DEVICE_VALUES || m.type === LiveType.DEVICE_STATUS) && m.deviceId === ids[0])).toEqual([]);
    c.ws.close();
  });

  it('follows at most devicesPerSocket devices: a longer request is cut and the answer says which', async () => {
    const ids = (await devices(6)).map((d) => d.id);
    const c = await signedIn();
    c.send({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: ids });
    await c.until(() => subscribed(c).length > 0);
    expect([...subscribed(c)[0]!.deviceIds].sort()).toEqual(ids.slice(0, limits.devicesPerSocket).sort());
    c.ws.close();
  });

  it('a user holds at most socketsPerUser live sockets; a further LOGIN is closed (4004) until one closes', async () => {
    const userId = await t.createUser({ username: `lb-user-${++seq}`, password: 'lb-pass-123', role: 'ADMIN' });
    const user = { id: userId, token: await t.login(`lb-user-${seq}`, 'lb-pass-123') };
    const open = [await signedIn(user), await signedIn(user), await signedIn(user)];
    const refused = await signedIn(user);
    await refused.until(() => refused.closed() !== undefined);
    expect(refused.closed()).toBe(4004);
    open[0]!.ws.close();
    await open[0]!.until(() => open[0]!.closed() !== undefined);
    await expect.poll(async () => {
      const again = await signedIn(user);
      return again.closed() === undefined && again.received.some((m) => m.type === LiveType.LOGIN_OK);
    }).toBe(true);
  });

  it('a message larger than the socket’s small payload limit closes it (1009)', async () => {
    const c = await signedIn();
    c.ws.send('x'.repeat(17 * 1024));
    await c.until(() => c.closed() !== undefined);
    expect(c.closed()).toBe(1009);
  });
});
