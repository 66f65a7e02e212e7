import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EzvizVideo } from './video.ezviz.js';

/**
 * A local EZVIZ open platform: issues tokens for one app key, expires them on demand (code 10002,
 * as the platform does) and answers live addresses for known serials only.
 */
class FakeEzviz {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const q = Object.fromEntries(new URLSearchParams(body));
      this.requests.push({ path: req.url!, q });
      res.setHeader('content-type', 'application/json');
      const send = (code: string, msg: string, data: object | null = null) => res.end(JSON.stringify({ code, msg, data }));
      if (req.url === '/api/lapp/token/get') {
        if (q.appKey !== 'app-key' || q.appSecret !== 'app-secret') return send('10017', 'appKey不存在');
        const token = `at.${++this.issued}`;
        this.tokens.add(token);
        return send('200', '操作成功!', { accessToken: token, expireTime: Date.now() + 7 * 86_400_000 });
      }
      if (req.url === '/api/lapp/v2/live/address/get') {
        if (!this.tokens.has(q.accessToken!)) return send('10002', 'accessToken过期或异常');
        if (q.deviceSerial !== 'C78957921') return send('20002', '设备不存在');
        return send('200', 'Operation succeeded', {
          id: '254708522214232064',
          url: `https://open.ys7.com/v3/openlive/${q.deviceSerial}_${q.channelNo}_1.m3u8?expire=1606999273&t=abc`,
          expireTime: '2020-12-03 20:41:13',
        });
      }
      res.statusCode = 404;
      res.end('not here');
    });
  });
  requests: { path: string; q: Record<string, string> }[] = [];
  tokens = new Set<string>();
  issued = 0;
  url = '';
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

describe('EzvizVideo against a local open platform', () => {
  const fake = new FakeEzviz();
  let video: EzvizVideo;
  const cam = (cameraSerial: string) => ({ sn: 'SN-1', name: 'Pack 1', cameraSerial });

  beforeAll(async () => {
    await fake.start();
    video = new EzvizVideo({ baseUrl: fake.url, appKey: 'app-key', appSecret: 'app-secret', addressTtlSeconds: 300 });
  });
  afterAll(() => new Promise<void>((r) => fake.server.close(() => r())));

  it('answers the HLS live address, the token fetched once and reused', async () => {
    // An adapter of its own and the platform's requests from here on: tests run in any order.
    const video = new EzvizVideo({ baseUrl: fake.url, appKey: 'app-key', appSecret: 'app-secret', addressTtlSeconds: 300 });
    const seen = fake.requests.length;
    const a = await video.h5Url(cam('C78957921'));
    expect(a.url).toBe('https://open.ys7.com/v3/openlive/C78957921_1_1.m3u8?expire=1606999273&t=abc');
    expect(a.expiresAt.getTime()).toBeGreaterThan(Date.now() + 290_000);
    const b = await video.h5Url(cam('C78957921:2'));
    expect(b.url).toContain('C78957921_2_1.m3u8');
    expect(fake.requests.slice(seen).filter((r) => r.path === '/api/lapp/token/get')).toHaveLength(1);
    expect(fake.requests.at(-1)!.q).toMatchObject({ deviceSerial: 'C78957921', channelNo: '2', protocol: '2', expireTime: '300' });
  });

  it('fetches a new token once when the platform calls the cached one expired', async () => {
    fake.tokens.clear();
    const before = fake.issued;
    expect((await video.h5Url(cam('C78957921'))).url).toContain('.m3u8');
    expect(fake.issued).toBe(before + 1);
  });

  it("refuses with the platform's code: an unknown camera, no serial, a wrong key", async () => {
    await expect(video.h5Url(cam('NOPE'))).rejects.toThrow('EZVIZ 20002: 设备不存在');
    await expect(video.h5Url(cam(''))).rejects.toThrow(/no EZVIZ camera serial/);
    const wrong = new EzvizVideo({ baseUrl: fake.url, appKey: 'other', appSecret: 'x' });
    await expect(wrong.h5Url(cam('C78957921'))).rejects.toThrow('EZVIZ token 10017');
  });
});
