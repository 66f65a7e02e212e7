import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

/** A directive of an answer's Content-Security-Policy, split into its sources. */
const directive = (headers: Record<string, unknown>, name: string) =>
  String(headers['content-security-policy'])
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find((d) => d[0] === name)
    ?.slice(1);

/** The EZVIZ open platform's two calls the console makes, answered locally. */
function fakeEzviz() {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const q = Object.fromEntries(new URLSearchParams(body));
      calls.push(req.url!);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/lapp/token/get') return res.end(JSON.stringify({ code: '200', msg: 'ok', data: { accessToken: 'at.1', expireTime: Date.now() + 86_400_000 } }));
      if (q.deviceSerial === 'C100') return res.end(JSON.stringify({ code: '200', msg: 'ok', data: { url: `https://live.example/C100_${q.channelNo}.m3u8?t=x` } }));
      res.end(JSON.stringify({ code: '20018', msg: '该用户不拥有该设备', data: null }));
    });
  });
  return { server, calls };
}

describe('EZVIZ_MEDIA_ORIGINS', () => {
  const ezviz = (env: Record<string, string>) => {
    const { video } = loadConfig({ VIDEO_PROVIDER: 'ezviz', EZVIZ_APP_KEY: 'k', EZVIZ_APP_SECRET: 's', ...env });
    return video.kind === 'ezviz' ? video.mediaOrigins : undefined;
  };
  it("defaults to every host of the platform's domain, or its own origin for an address", () => {
    expect(ezviz({})).toEqual(['https://*.ys7.com', 'https://open.ys7.com']);
    expect(ezviz({ EZVIZ_BASE_URL: 'https://open.ezvizlife.com' })).toEqual(['https://*.ezvizlife.com', 'https://open.ezvizlife.com']);
    expect(ezviz({ EZVIZ_BASE_URL: 'http://127.0.0.1:8080' })).toEqual(['http://127.0.0.1:8080']);
    expect(ezviz({ EZVIZ_MEDIA_ORIGINS: 'https://hls01open.ys7.com, https://*.cdn.example  http://10.0.0.5:81' })).toEqual([
      'https://hls01open.ys7.com',
      'https://*.cdn.example',
      'http://10.0.0.5:81',
    ]);
    for (const bad of ['https://x.example/path', "'unsafe-inline'", 'ftp://x.example', 'https://x.example;script-src *'])
      expect(() => ezviz({ EZVIZ_MEDIA_ORIGINS: bad }), bad).toThrow(/EZVIZ_MEDIA_ORIGINS/);
  });
});

describe('device video through EZVIZ (VIDEO_PROVIDER=ezviz, local platform)', () => {
  let t: TestApp;
  let token: string;
  let base: string;
  const fake = fakeEzviz();

  beforeAll(async () => {
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    t = await buildTestApp({ VIDEO_PROVIDER: 'ezviz', EZVIZ_BASE_URL: base, EZVIZ_APP_KEY: 'k', EZVIZ_APP_SECRET: 's' });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => fake.server.close(() => r()));
  });

  it("lets the console's player fetch the platform's streams (CSP), and nothing else", async () => {
    for (const url of ['/video/play?id=1', '/api/v1/config']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(directive(page.headers, 'connect-src'), url).toEqual(["'self'", base]);
      expect(directive(page.headers, 'media-src'), url).toEqual(["'self'", 'blob:', base]);
      expect(directive(page.headers, 'script-src'), url).toEqual(["'self'"]);
      expect(directive(page.headers, 'worker-src'), url).toBeUndefined();
    }
    const simulated = await buildTestApp();
    try {
      const page = await simulated.app.inject({ method: 'GET', url: '/video/play?id=1' });
      expect(directive(page.headers, 'connect-src')).toEqual(["'self'"]);
      expect(directive(page.headers, 'media-src')).toEqual(["'self'"]);
    } finally {
      await simulated.close();
    }
  });

  it("plays the device's camera serial and refuses with the platform's message otherwise", async () => {
    const call = async (url: string, payload: object) => (await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: bearer(token), payload })).json();
    const typeId = (await call('/devicetype/addtype', { code: 'CAM', name: '摄像' })).data.id;
    const cam = (await call('/device/add', { name: 'Yard cam', sn: 'CAM-1', typeId, camera: true, cameraSerial: 'C100:3' })).data;
    const basic = (await t.app.inject({ method: 'GET', url: `/api/v1/device/basic?id=${cam.id}`, headers: bearer(token) })).json();
    expect(basic.data).toMatchObject({ camera: true, cameraSerial: 'C100:3' });
    const v = await call('/getVideoH5Url', { deviceId: cam.id });
    expect(v).toMatchObject({ code: 20000, data: { url: 'https://live.example/C100_3.m3u8?t=x', provider: 'ezviz' } });
    const other = (await call('/device/add', { name: 'Other cam', sn: 'CAM-2', typeId, camera: true, cameraSerial: 'C999' })).data;
    const refused = await call('/getVideoH5Url', { deviceId: other.id });
    expect(refused.data).toMatchObject({ reason: 'videoProviderFailed' });
    expect(refused.message).toContain('20018');
    expect((await call('/device/add', { name: 'Bad', sn: 'CAM-3', typeId, cameraSerial: 'has space' })).code).toBe(40000);
    expect(fake.calls.filter((c) => c === '/api/lapp/token/get')).toHaveLength(1);
  });
});
