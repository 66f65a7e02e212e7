import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

const SECRET = 'broker-hook-secret-0123456789';
const SERVER = { username: 'iot-console-server', password: 'server-pass-42' };

/** The auth hooks an external broker calls (EMQX HTTP auth/authz, mosquitto-go-auth HTTP backend). */
describe('broker auth hooks', () => {
  let t: TestApp;
  let token: string;
  let a: { sn: string; secret: string };
  let b: { sn: string; secret: string };

  const hook = (url: string, payload: object, secret: string | null = SECRET, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/broker/${url}`,
      headers: { ...(secret ? { 'x-broker-secret': secret } : {}), ...headers },
      payload,
    });

  const logs = async (sn: string) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/v1/logs/devicelogs?sn=${sn}&limit=50`, headers: bearer(token) })
    ).json().data.items as { kind: string; reason: string | null; detail: Record<string, unknown> }[];

  beforeAll(async () => {
    t = await buildTestApp({
      BROKER_AUTH_SECRET: SECRET,
      MQTT_URL: `mqtt://${SERVER.username}:${SERVER.password}@broker.example:1883`,
    });
    token = await t.login();
    const types = await t.app.inject({ method: 'GET', url: '/api/v1/devicetype/typeoptionslist', headers: bearer(token) });
    const typeId = types.json().data.find((x: { code: string }) => x.code === 'BMU').id;
    const add = async (sn: string) => {
      const r = await t.app.inject({ method: 'POST', url: '/api/v1/device/add', headers: bearer(token), payload: { name: sn, sn, typeId } });
      return { sn, secret: r.json().data.secret as string };
    };
    a = await add('HOOK-A');
    b = await add('HOOK-B');
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes the server login from MQTT_URL', () => {
    expect(t.config).toMatchObject({ mqttUsername: SERVER.username, mqttPassword: SERVER.password });
  });

  it('EMQX authentication: a device with its secret, never with a wrong one; the console as superuser', async () => {
    const ok = await hook('emqx/authn', { username: a.sn, password: a.secret, clientid: a.sn });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^application\/json/);
    expect(ok.json()).toEqual({ result: 'allow', is_superuser: false });

    expect((await hook('emqx/authn', { username: a.sn, password: b.secret, clientid: a.sn })).json()).toEqual({ result: 'deny', is_superuser: false });
    expect((await hook('emqx/authn', { username: 'NO-SUCH', password: 'x', clientid: 'c2' })).json()).toMatchObject({ result: 'deny' });
    expect((await hook('emqx/authn', { username: a.sn, clientid: a.sn })).json()).toMatchObject({ result: 'deny' });
    await expect.poll(async () => (await logs(a.sn)).map((l) => l.reason)).toContain('badCredentials');
    await expect.poll(async () => (await logs('NO-SUCH')).map((l) => l.reason)).toContain('unknownDevice');

    // The client id is bound to the SN: another device's (or any other) client id is refused even
    // with the right secret, so a device can never take over another's session.
    expect((await hook('emqx/authn', { username: a.sn, password: a.secret, clientid: b.sn })).json()).toEqual({ result: 'deny', is_superuser: false });
    expect((await hook('emqx/authn', { username: a.sn, password: a.secret, clientid: `${b.sn}@x` })).json()).toMatchObject({ result: 'deny' });
    expect((await hook('emqx/authn', { username: a.sn, password: a.secret, clientid: 'c1' })).json()).toMatchObject({ result: 'deny' });
    expect((await hook('emqx/authn', { username: a.sn, password: a.secret, clientid: `${a.sn}@listener` })).json()).toMatchObject({ result: 'allow' });
    await expect.poll(async () => (await logs(a.sn)).map((l) => l.reason)).toContain('foreignClientId');

    expect((await hook('emqx/authn', { ...SERVER, clientid: 'srv' })).json()).toEqual({ result: 'allow', is_superuser: true });
    expect((await hook('emqx/authn', { username: SERVER.username, password: 'guess', clientid: 'srv' })).json()).toMatchObject({ result: 'deny' });
  });

  it('EMQX authorization: own topics only', async () => {
    const authz = async (username: string, topic: string, action: string) =>
      (await hook('emqx/authz', { username, clientid: `${username}@app`, topic, action })).json().result;
    expect(await authz(a.sn, `dev/${a.sn}/telemetry`, 'publish')).toBe('allow');
    expect(await authz(a.sn, `dev/${a.sn}/status`, 'publish')).toBe('allow');
    expect(await authz(a.sn, `dev/${a.sn}/cmd`, 'subscribe')).toBe('allow');
    expect(await authz(a.sn, `dev/${a.sn}/reply`, 'subscribe')).toBe('allow');
    expect(await authz(a.sn, `dev/${b.sn}/reply`, 'subscribe')).toBe('deny');
    expect(await authz(a.sn, `dev/${a.sn}/time`, 'publish')).toBe('allow');
    expect(await authz(a.sn, `dev/${b.sn}/telemetry`, 'publish')).toBe('deny');
    expect(await authz(a.sn, `dev/${b.sn}/cmd`, 'subscribe')).toBe('deny');
    expect(await authz(a.sn, `dev/${a.sn}/cmd`, 'publish')).toBe('deny');
    expect(await authz(a.sn, `dev/${a.sn}/telemetry`, 'subscribe')).toBe('deny');
    expect(await authz(a.sn, 'dev/+/telemetry', 'subscribe')).toBe('deny');
    expect(await authz(a.sn, '#', 'subscribe')).toBe('deny');
    expect(await authz('NO-SUCH', 'dev/NO-SUCH/telemetry', 'publish')).toBe('deny');
    // Authorization checks the client id too (a broker that authenticated it otherwise).
    expect((await hook('emqx/authz', { username: a.sn, clientid: b.sn, topic: `dev/${a.sn}/telemetry`, action: 'publish' })).json().result).toBe('deny');
    expect(await authz(SERVER.username, '$share/iot-console/dev/+/telemetry', 'subscribe')).toBe('allow');
    await expect.poll(async () => (await logs(a.sn)).map((l) => l.reason)).toContain('foreignTopic');
  });

  it('mosquitto-go-auth: user, superuser and ACL by HTTP status, JSON or form bodies', async () => {
    expect((await hook('mosquitto/user', { username: a.sn, password: a.secret, clientid: `${a.sn}@app` })).statusCode).toBe(200);
    const bad = await hook('mosquitto/user', { username: a.sn, password: 'nope', clientid: 'c' });
    expect(bad.statusCode).toBe(403);
    expect(bad.json()).toMatchObject({ ok: false });
    expect((await hook('mosquitto/user', { ...SERVER, clientid: 'srv' })).json()).toEqual({ ok: true, error: '' });

    expect((await hook('mosquitto/superuser', { username: SERVER.username })).statusCode).toBe(200);
    expect((await hook('mosquitto/superuser', { username: a.sn })).statusCode).toBe(403);

    const acl = async (username: string, topic: string, acc: number) =>
      (await hook('mosquitto/acl', { username, clientid: username, topic, acc })).statusCode;
    expect(await acl(a.sn, `dev/${a.sn}/gps`, 2)).toBe(200);
    expect(await acl(a.sn, `dev/${a.sn}/cmd`, 4)).toBe(200);
    expect(await acl(a.sn, `dev/${a.sn}/cmd`, 1)).toBe(200);
    expect(await acl(a.sn, `dev/${b.sn}/gps`, 2)).toBe(403);
    expect(await acl(a.sn, `dev/${b.sn}/cmd`, 4)).toBe(403);
    expect(await acl(a.sn, `dev/${a.sn}/cmd`, 3)).toBe(403);

    // http_params_mode form: the same fields as a form, acc as a string.
    const form = await t.app.inject({
      method: 'POST',
      url: `/api/v1/broker/mosquitto/acl?secret=${SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: a.sn, clientid: a.sn, topic: `dev/${a.sn}/telemetry`, acc: '2' }).toString(),
    });
    expect(form.statusCode).toBe(200);
  });

  it('answers only a broker that sends the secret (header or query), and rate limits the rest', async () => {
    const body = { username: a.sn, password: a.secret, clientid: a.sn };
    const missing = await hook('emqx/authn', body, null);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 60204 });
    expect((await hook('mosquitto/user', body, 'wrong-secret-wrong-secret')).statusCode).toBe(401);
    expect((await hook(`mosquitto/user?secret=${SECRET}`, body, null)).statusCode).toBe(200);

    // The broker itself is never limited …
    for (let i = 0; i < 40; i++) expect((await hook('mosquitto/acl', { username: a.sn, clientid: a.sn, topic: `dev/${a.sn}/ack`, acc: 2 })).statusCode).toBe(200);
    // … a prober is, after 30 tries a minute.
    const codes: number[] = [];
    for (let i = 0; i < 32; i++) codes.push((await hook('emqx/authn', body, `guess-${i}`)).statusCode);
    expect(codes.slice(0, 28).every((c) => c === 401)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });

  it('refuses everything while BROKER_AUTH_SECRET is unset: 403 in the envelope, on every hook', async () => {
    const off = await buildTestApp();
    try {
      const body = { username: 'X', password: 'y', clientid: 'X', topic: 'dev/X/telemetry', acc: 2, action: 'publish' };
      for (const url of ['emqx/authn', 'emqx/authz', 'mosquitto/user', 'mosquitto/superuser', 'mosquitto/acl']) {
        // With some secret in the header, in the query, or none at all: the hooks are off.
        for (const r of [
          await off.app.inject({ method: 'POST', url: `/api/v1/broker/${url}`, headers: { 'x-broker-secret': SECRET }, payload: body }),
          await off.app.inject({ method: 'POST', url: `/api/v1/broker/${url}?secret=${SECRET}`, payload: body }),
          await off.app.inject({ method: 'POST', url: `/api/v1/broker/${url}`, payload: body }),
        ]) {
          expect(r.statusCode, `${url}: ${r.body}`).toBe(403);
          expect(r.json()).toEqual({ code: 40300, message: expect.stringMatching(/BROKER_AUTH_SECRET/), data: { reason: 'brokerHooksOff' } });
        }
      }
    } finally {
      await off.close();
    }
  });
});
