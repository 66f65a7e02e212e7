/**
 * HLS live video in the console's player (issue #39): with VIDEO_PROVIDER=ezviz a camera's
 * address is an `.m3u8` playlist, which desktop Chromium does not play by itself. The device
 * page's Video button opens /video/play, whose player (hls.js) fetches the playlist and its
 * MPEG-TS segments from the platform's host and shows moving pictures; when the stream stops it
 * says why (stopped, or its address expired) and "Try again" asks the server for a new address.
 *
 * The EZVIZ open platform is a local fake serving a real stream (hls-stream.ts: H.264 in
 * MPEG-TS, made in memory); the console under test is a server of its own, started here with
 * VIDEO_PROVIDER=ezviz (the shared E2E servers keep the simulated provider).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ADMIN_PASSWORD, PORTS } from './env';
import { apiLogin, callApi, expect, setTokenCookie, test } from './fixtures';
import { playlist, segment } from './hls-stream';

const root = path.resolve(import.meta.dirname, '../../..');
const CONSOLE = `http://127.0.0.1:${PORTS.own}`;

/** The platform: token, live addresses (a new one per call) and the streams behind them. */
function fakeEzviz() {
  const started = Date.now();
  const requests: string[] = [];
  /** Addresses handed out, in order; a revoked one answers 403 like an expired platform address. */
  const addresses: string[] = [];
  const revoked = new Set<string>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = req.url ?? '/';
      requests.push(url);
      res.setHeader('access-control-allow-origin', '*');
      const json = (data: unknown) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(data));
      };
      if (url === '/api/lapp/token/get') return json({ code: '200', msg: 'ok', data: { accessToken: 'at.e2e', expireTime: Date.now() + 86_400_000 } });
      if (url === '/api/lapp/v2/live/address/get') {
        const q = new URLSearchParams(body);
        const key = `${q.get('deviceSerial')}-${addresses.length + 1}`;
        addresses.push(key);
        const { port } = server.address() as AddressInfo;
        return json({ code: '200', msg: 'ok', data: { url: `http://127.0.0.1:${port}/openlive/${key}.m3u8?expire=${q.get('expireTime')}` } });
      }
      const live = /^\/openlive\/([\w-]+)(?:\.m3u8|\/(\d+)\.ts)/.exec(url);
      if (!live || revoked.has(live[1]!)) {
        res.statusCode = live ? 403 : 404;
        return res.end();
      }
      if (live[2] !== undefined) {
        res.setHeader('content-type', 'video/mp2t');
        return res.end(segment(Number(live[2])));
      }
      // A live window of one-second segments that grows with the clock.
      res.setHeader('content-type', 'application/vnd.apple.mpegurl');
      res.end(playlist(Math.floor((Date.now() - started) / 1000) + 2, (i) => `${live[1]}/${i}.ts`));
    });
  });
  return { server, requests, addresses, revoked };
}

/** The compiled console (npm run build) with VIDEO_PROVIDER=ezviz on a fresh database. */
async function startConsole(ezviz: string): Promise<ChildProcess> {
  const dataDir = path.join(root, '.tmp', `e2e-${PORTS.own}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(PORTS.own),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      CAPTCHA: 'off',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      DEMO: 'off',
      WEATHER_URL: 'off',
      RESPONSE_CHECK: 'on',
      VIDEO_PROVIDER: 'ezviz',
      EZVIZ_BASE_URL: ezviz,
      EZVIZ_APP_KEY: 'e2e-key',
      EZVIZ_APP_SECRET: 'e2e-secret',
    },
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const until = Date.now() + Number(process.env.E2E_SERVER_TIMEOUT ?? 120_000);
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the console exited: ${stderr}`);
    const up = await fetch(`${CONSOLE}/api/v1/config`).then((r) => r.ok, () => false);
    if (up) return child;
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error(`the console did not start: ${stderr}`);
}

/** What the player's <video> element says about itself. */
function videoState(player: Page) {
  return player.getByTestId('video-stream').evaluate((v: HTMLVideoElement) => ({
    readyState: v.readyState,
    currentTime: v.currentTime,
    width: v.videoWidth,
    src: v.currentSrc,
  }));
}

/** Live: the badge, frames decoded and the clock of the picture moving on. */
async function expectPlaying(player: Page) {
  await expect(player.getByTestId('video-live')).toBeVisible({ timeout: 30_000 });
  const before = await videoState(player);
  expect(before.readyState).toBeGreaterThanOrEqual(2);
  expect(before.width).toBe(32);
  await expect.poll(async () => (await videoState(player)).currentTime, { timeout: 10_000 }).toBeGreaterThan(before.currentTime + 0.5);
}

test.describe('HLS camera video (VIDEO_PROVIDER=ezviz)', () => {
  const fake = fakeEzviz();
  let console_: ChildProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    console_ = await startConsole(`http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`);
  });
  test.afterAll(async () => {
    if (console_ && console_.exitCode === null) {
      const exited = new Promise((r) => console_!.once('exit', r));
      console_.kill('SIGTERM');
      await exited;
    }
    await new Promise<void>((r) => fake.server.close(() => r()));
  });

  test('the camera plays in the console; a stopped or expired stream is told and a retry gets a new address', async ({ page, context, request }) => {
    test.setTimeout(150_000);
    const token = await apiLogin(request, CONSOLE);
    await setTokenCookie(context, token, CONSOLE);
    const call = async <T,>(url: string, data: object) => {
      const res = await callApi<T>(request, 'POST', url, { token, data, baseURL: CONSOLE });
      expect(res.body.code, res.body.message).toBe(20000);
      return res.body.data;
    };
    const type = await call<{ id: number }>('/devicetype/addtype', { code: 'CAM', name: 'Camera' });
    const cam = await call<{ id: number }>('/device/add', { name: 'Yard camera', sn: 'CAM-HLS-1', typeId: type.id, camera: true, cameraSerial: 'C100' });

    await page.goto(`${CONSOLE}/project/info?id=${cam.id}`);
    await expect(page.getByTestId('device-title')).toHaveText('Yard camera', { timeout: 30_000 });
    const [player] = await Promise.all([context.waitForEvent('page'), page.getByTestId('device-video').click()]);
    const playerErrors: string[] = [];
    player.on('pageerror', (e) => playerErrors.push(e.message));
    await expect(player).toHaveURL(`${CONSOLE}/video/play?id=${cam.id}`);
    await expect(player.getByTestId('video-device')).toHaveText('Yard camera', { timeout: 30_000 });

    // hls.js (not the browser: its src is a blob: MediaSource) fetched the playlist and segments.
    await expectPlaying(player);
    expect((await videoState(player)).src).toMatch(/^blob:/);
    const first = fake.addresses[0]!;
    expect(fake.addresses).toEqual(['C100-1']);
    expect(fake.requests.filter((u) => u.startsWith(`/openlive/${first}.m3u8`)).length).toBeGreaterThanOrEqual(1);
    expect(fake.requests.filter((u) => u.startsWith(`/openlive/${first}/`) && u.endsWith('.ts')).length).toBeGreaterThanOrEqual(2);
    await expect(player.getByTestId('video-valid-until')).toContainText('Address valid until');

    // The platform stops serving the address before its expiry: the stream stopped, say so.
    fake.revoked.add(first);
    const problem = player.getByTestId('video-problem');
    await expect(problem).toHaveAttribute('data-kind', 'failed', { timeout: 45_000 });
    await expect(problem).toContainText('The video stopped');
    await expect(problem).toContainText('403');
    await player.getByTestId('video-retry').click();
    await expectPlaying(player);
    expect(fake.addresses).toEqual(['C100-1', 'C100-2']);

    // Ten minutes on (the page's clock), the address has expired when the platform refuses it.
    await player.evaluate(() => {
      const now = Date.now.bind(Date);
      Date.now = () => now() + 11 * 60_000;
    });
    fake.revoked.add('C100-2');
    await expect(problem).toHaveAttribute('data-kind', 'expired', { timeout: 45_000 });
    await expect(problem).toContainText('The video address has expired');
    await player.getByTestId('video-retry').click();
    await expectPlaying(player);
    expect(fake.addresses).toEqual(['C100-1', 'C100-2', 'C100-3']);
    expect(playerErrors).toEqual([]);
  });

  test('the server refusing an address is shown in the page, with a retry', async ({ page, context, request }) => {
    const token = await apiLogin(request, CONSOLE);
    await setTokenCookie(context, token, CONSOLE);
    const type = await callApi<{ id: number }>(request, 'POST', '/devicetype/addtype', { token, baseURL: CONSOLE, data: { code: 'CAM2', name: 'Camera 2' } });
    const typeId = type.body.data.id;
    // No serial on the platform to ask for: the server refuses, the page says so.
    const added = await callApi<{ id: number }>(request, 'POST', '/device/add', {
      token,
      baseURL: CONSOLE,
      data: { name: 'Unknown camera', sn: 'CAM-HLS-2', typeId, camera: true, cameraSerial: '' },
    });
    expect(added.body.code, added.body.message).toBe(20000);
    await page.goto(`${CONSOLE}/video/play?id=${added.body.data.id}`);
    const problem = page.getByTestId('video-problem');
    await expect(problem).toHaveAttribute('data-kind', 'address', { timeout: 30_000 });
    await expect(problem).toContainText("The camera's address could not be obtained");
    await expect(page.getByTestId('video-retry')).toBeVisible();
  });
});
