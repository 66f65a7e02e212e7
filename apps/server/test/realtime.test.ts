import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, LiveType } from '@iot/contract';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { connectLive as connect } from './live-client.js';

describe('live channel /api/v1/ws', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp({}, { liveTiming: { idleTimeoutMs: 600, loginTimeoutMs: 400 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as { port: number };
    url = `ws://127.0.0.1:${addr.port}/api/v1/ws`;
  });
  afterAll(() => t.close());

  it('authenticates LOGIN (110) by token, answers heartbeats (80) and delivers user-scoped pushes', async () => {
    const token = await t.login();
    const c = connect(url);
    await c.open();
    c.send({ type: LiveType.LOGIN, userId: 1, token, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK));
    c.send({ type: LiveType.HEARTBEAT, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.HEARTBEAT_ACK));
    expect(t.app.realtime.publishToUser(1, { type: LiveType.MENUS_CHANGED, timestamp: 1 })).toBe(1);
    expect(t.app.realtime.publishToUser(2, { type: LiveType.MENUS_CHANGED, timestamp: 1 })).toBe(0);
    await c.until(() => c.received.some((m) => m.type === LiveType.MENUS_CHANGED));
    c.ws.close();
  });

  it('closes a socket whose token is wrong or belongs to another user', async () => {
    const bad = connect(url);
    await bad.open();
    bad.send({ type: LiveType.LOGIN, userId: 1, token: 'forged', timestamp: Date.now() });
    await bad.until(() => bad.closed() !== undefined);
    expect(bad.closed()).toBe(4001);

    const token = await t.login();
    const other = connect(url);
    await other.open();
    other.send({ type: LiveType.LOGIN, userId: 99, token, timestamp: Date.now() });
    await other.until(() => other.closed() !== undefined);
    expect(other.closed()).toBe(4001);
  });

  it('ignores malformed messages without dropping the socket', async () => {
    const token = await t.login();
    const c = connect(url);
    await c.open();
    c.ws.send('not json');
    c.send({ type: 999 });
    c.send({ type: LiveType.LOGIN, userId: 1, token, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK));
    c.ws.close();
  });

  it('logout pushes SESSION_ENDED (50012) and closes the socket of that session', async () => {
    const token = await t.login();
    const c = connect(url);
    await c.open();
    c.send({ type: LiveType.LOGIN, userId: 1, token, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK));
    await t.app.inject({ method: 'POST', url: '/api/v1/user/logout', headers: bearer(token) });
    await c.until(() => c.closed() !== undefined);
    expect(c.received.find((m) => m.type === LiveType.SESSION_ENDED)).toMatchObject({
      code: ErrorCode.TOKEN_REVOKED,
    });
  });

  it('drops sockets that never log in or fall silent', async () => {
    const silent = connect(url);
    await silent.open();
    await silent.until(() => silent.closed() !== undefined);
    expect(silent.closed()).toBe(4000);

    const token = await t.login();
    const idle = connect(url);
    await idle.open();
    idle.send({ type: LiveType.LOGIN, userId: 1, token, timestamp: Date.now() });
    await idle.until(() => idle.closed() !== undefined);
    expect(idle.closed()).toBe(4002);
    await idle.until(() => t.app.realtime.connections() === 0);
  });

  it('answers nothing before authentication: a heartbeat before login gets no answer', async () => {
    const token = await t.login();
    const c = connect(url);
    await c.open();
    c.send({ type: LiveType.HEARTBEAT, timestamp: Date.now() });
    c.send({ type: LiveType.LOGIN, userId: 1, token, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.LOGIN_OK));
    // The socket's messages are handled in order: an answer to the heartbeat would precede LOGIN_OK.
    expect(c.received.map((m) => m.type)).toEqual([LiveType.LOGIN_OK]);
    c.send({ type: LiveType.HEARTBEAT, timestamp: Date.now() });
    await c.until(() => c.received.some((m) => m.type === LiveType.HEARTBEAT_ACK));
    c.ws.close();
  });
});

describe('live channel under a flood of unauthenticated sockets', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    // Default timings (5 s to log in) and caps (20 unauthenticated sockets per address).
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/ws`;
  });
  afterAll(() => t.close());

  it('one address holds at most 20 sockets before they authenticate; more are closed at once (4003)', async () => {
    const sockets = Array.from({ length: 30 }, () => connect(url));
    await Promise.all(sockets.map((s) => s.open()));
    await Promise.all(sockets.slice(20).map((s) => s.until(() => s.closed() !== undefined, 2000)));
    expect(sockets.slice(20).map((s) => s.closed())).toEqual(Array(10).fill(4003));
    await Promise.all(sockets.slice(0, 20).map((s) => s.pinged()));
    expect(sockets.slice(0, 20).every((s) => s.closed() === undefined)).toBe(true);

    // An authenticated socket no longer counts: a new one is accepted again.
    const token = await t.login();
    sockets[0]!.send({ type: LiveType.LOGIN, userId: 1, token, timestamp: Date.now() });
    await sockets[0]!.until(() => sockets[0]!.received.some((m) => m.type === LiveType.LOGIN_OK));
    const next = connect(url);
    await next.open();
    await next.pinged();
    expect(next.closed()).toBeUndefined();

    // The unauthenticated ones are all closed for the login timeout (5 s, checked by a sweep: the
    // wait allows for it on a loaded machine), the authenticated one stays.
    const waiting = [...sockets.slice(1, 20), next];
    await Promise.all(waiting.map((s) => s.until(() => s.closed() !== undefined, 9000)));
    expect(waiting.map((s) => s.closed())).toEqual(Array(20).fill(4000));
    expect(sockets[0]!.closed()).toBeUndefined();
    sockets[0]!.ws.close();
  }, 20_000);
});
