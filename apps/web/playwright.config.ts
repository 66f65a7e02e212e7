import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * E2E in the system Chromium (Debian `chromium`; no browser download) against the real server
 * on embedded PGlite. Two servers per worker (e2e/env.ts): captcha off (most specs) and captcha on.
 */
const root = path.resolve(import.meta.dirname, '../..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  throw new Error(
    `Chromium not found at ${chromium}. Browser tests need it: apt-get install chromium fonts-noto-cjk fonts-liberation ` +
      '(or set CHROMIUM_PATH).',
  );
}

import { ADMIN_PASSWORD, PORTS, WORKERS, portsOf } from './e2e/env';
import { SITE_CONTACT } from './e2e/site-contact';

function server(port: number, captcha: 'on' | 'off') {
  // A fresh database every run (wiped by the command, not here: workers load this file too).
  const dataDir = path.join(root, '.tmp', `e2e-${port}`);
  return {
    // The site's contact details go in first, with the operators' script (scripts/site-config.ts).
    command:
      `rm -rf '${dataDir}' && node --import tsx scripts/site-config.ts '${JSON.stringify(SITE_CONTACT)}' && ` +
      // The compiled server, as `npm start` runs it (`npm run build` compiles it with the web).
      'node --enable-source-maps apps/server/dist/main.js',
    cwd: root,
    url: `http://127.0.0.1:${port}/api/v1/config`,
    reuseExistingServer: false,
    // A loaded shared machine may need longer for a fresh database (E2E_SERVER_TIMEOUT ms).
    timeout: Number(process.env.E2E_SERVER_TIMEOUT ?? 120_000),
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CAPTCHA: captcha,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // The specs count and list devices: no demo fleet (embedded mode would start one).
      DEMO: 'off',
      // No project forecasts: the machine has no internet.
      WEATHER_URL: 'off',
      // Every answer the browser gets is also checked against its contract (lib/serializer.ts).
      RESPONSE_CHECK: 'on',
    },
  };
}

export default defineConfig({
  testDir: './e2e',
  outputDir: path.join(root, 'test-results', String(PORTS.main)),
  // Files are dealt to the workers; a file's tests run in order in one worker, against its servers.
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORTS.main}`,
    viewport: { width: 1366, height: 800 },
    locale: 'en-US',
    // The console honours the OS preference by switching antd's animations off; popups then
    // open in place and a click cannot land on a menu that is still sliding in.
    contextOptions: { reducedMotion: 'reduce' },
    // A failed test keeps its trace with the DOM at each step, not the screencast: recording
    // frames for every test kept Chromium's GPU process busy and made the suite CPU-bound
    // (bench/README.md "CI time"). The failure's own screenshot is still taken.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: Array.from({ length: WORKERS }, (_, i) => [server(portsOf(i).main, 'off'), server(portsOf(i).captcha, 'on')]).flat(),
});
