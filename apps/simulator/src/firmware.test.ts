import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFirmware } from './firmware.js';

/**
 * The simulator's download of a firmware image from a real HTTP server that cuts the first
 * transfer half-way (a bad link) and honours `Range` as the console's download route does.
 */
describe('fetchFirmware', () => {
  const image = crypto.randomBytes(256 * 1024);
  const sha256 = crypto.createHash('sha256').update(image).digest('hex');
  const ranges: (string | undefined)[] = [];
  let cutNext = false;
  let server: http.Server;
  let base = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      ranges.push(req.headers.range);
      if (req.url === '/missing') return void res.writeHead(404).end();
      const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      const start = m ? Number(m[1]) : 0;
      const body = image.subarray(start);
      res.writeHead(m ? 206 : 200, {
        'content-length': String(body.length),
        ...(m ? { 'content-range': `bytes ${start}-${image.length - 1}/${image.length}` } : {}),
      });
      if (cutNext) {
        cutNext = false;
        // Half of it, then the connection drops.
        res.write(body.subarray(0, body.length / 2), () => res.socket?.destroy());
        return;
      }
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('resumes a cut download with Range and checks the checksum', async () => {
    ranges.length = 0;
    cutNext = true;
    const seen: number[] = [];
    const result = await fetchFirmware(`${base}/fw.bin`, { size: image.length, sha256 }, { onProgress: (p) => seen.push(p) });
    expect(result).toBe('done');
    expect(ranges[0]).toBeUndefined();
    expect(ranges[1]).toMatch(/^bytes=\d+-$/);
    expect(Number(/\d+/.exec(ranges[1]!)![0])).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(100);
  });

  it('refuses an image whose checksum or size differs, and names a failed request', async () => {
    expect(await fetchFirmware(`${base}/fw.bin`, { sha256: 'ab'.repeat(32) })).toEqual({ error: 'sha256 mismatch' });
    expect(await fetchFirmware(`${base}/fw.bin`, { size: image.length + 1, sha256 })).toMatchObject({ error: expect.stringMatching(/cut|size/) });
    expect(await fetchFirmware(`${base}/missing`, { sha256 })).toEqual({ error: 'download failed: 404' });
  });
});
