import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_SHEET_COLUMNS, ErrorCode, IMPORT_MAX_ROWS_EMBEDDED as MAX_ROWS } from '@iot/contract';
import { writeSheet } from '../src/lib/sheet.js';
import { buildTestApp, multipart, type TestApp } from './helpers.js';

const EN = DEVICE_SHEET_COLUMNS.map((c) => c.en);

/**
 * Large imports run beside normal traffic: the sheet is parsed in a worker thread and stops at the
 * row limit, at most two imports run at once, and the API keeps answering meanwhile.
 */
describe('large imports do not freeze the server', () => {
  let t: TestApp;
  let base: string;
  let token: string;
  let maximal: Buffer;
  let huge: Buffer;

  beforeAll(async () => {
    t = await buildTestApp({}, { importLimits: { concurrency: 2, waitMs: 20, maxRows: MAX_ROWS } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    token = await t.login();
    const full = Array.from({ length: MAX_ROWS }, (_, i) => [
      `Pack ${i}`, `LOAD-${i}`, 'BMU', '', 'Bay 1', 121.5, 31.2, '', 1, '', '', '', '8986001', '861234567890123', 'LFP', '', '',
    ]);
    maximal = await writeSheet('devices', [EN, ...full]);
    const many: unknown[][] = [['name', 'sn', 'type']];
    for (let i = 0; i < 200_000; i++) many.push([`P${i}`, `HUGE-${i}`, 'BMU']);
    huge = await writeSheet('devices', many);
  }, 120_000);
  afterAll(() => t.close());

  const upload = async (name: string, data: Buffer, query = 'dryRun=true', what = 'device') => {
    const body = multipart(name, data);
    const res = await fetch(`${base}/api/v1/${what === 'card' ? 'card' : 'device'}/import?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...body.headers },
      body: body.payload,
    });
    return (await res.json()) as { code: number; data: any };
  };

  it('a 200,000-row sheet is refused at the row limit', async () => {
    const res = await upload('huge.xlsx', huge);
    expect(res).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file', reason: 'importTooManyRows' } });
  }, 60_000);

  /** Latencies of GET /config, four at a time, until `done` resolves. */
  const probe = async (done: Promise<unknown>) => {
    const latencies: number[] = [];
    let running = true;
    void done.finally(() => {
      running = false;
    });
    while (running) {
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          const started = performance.now();
          await (await fetch(`${base}/api/v1/config`)).arrayBuffer();
          latencies.push(performance.now() - started);
        }),
      );
      await new Promise((r) => setTimeout(r, 10));
    }
    latencies.sort((a, b) => a - b);
    return { n: latencies.length, p99: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))]! };
  };

  it('GET /config is not stalled while a maximal import runs (p99 under 500 ms)', async () => {
    // The same probe without an import, for the machine's own noise.
    const idle = await probe(new Promise((r) => setTimeout(r, 1500)));
    const imports = Promise.all([upload('max.xlsx', maximal), upload('huge.xlsx', huge)]);
    const busy = await probe(imports);
    const [max, tooMany] = await imports;
    expect(max).toMatchObject({ code: 20000, data: { total: MAX_ROWS, valid: MAX_ROWS, dryRun: true } });
    expect(tooMany.data.reason).toBe('importTooManyRows');
    expect(busy.n).toBeGreaterThan(20);
    // Parsing on the event loop stalls it for one to several seconds; in a worker the API answers
    // as usual (tens of ms on a quiet machine). The bound is a stall's, not a speed target (those
    // are in bench/): 500 ms, or three times the idle p99 when other processes load the machine,
    // as they do when the whole suite runs on two cores (202 ms was seen beside a 37 ms idle p99).
    expect(busy.p99, `p99 ${busy.p99.toFixed(0)} ms while importing, ${idle.p99.toFixed(0)} ms idle`).toBeLessThan(Math.max(500, 3 * idle.p99));
  }, 120_000);

  it('at most two imports run at once; a third that cannot get a slot soon answers 42900', async () => {
    const answers = await Promise.all([upload('a.xlsx', maximal), upload('b.xlsx', maximal), upload('c.xlsx', maximal)]);
    expect(answers.filter((a) => a.code === 20000)).toHaveLength(2);
    expect(answers.find((a) => a.code !== 20000)).toMatchObject({ code: ErrorCode.RATE_LIMITED, data: { reason: 'importBusy' } });
    // SIM card imports take the same two slots: of two maximal device imports and a maximal card
    // import sent together, one is refused (with slots of their own, all three would run).
    const cards = await writeSheet('cards', [['ICCID'], ...Array.from({ length: MAX_ROWS }, (_, i) => [`89860400${String(i).padStart(12, '0')}`])]);
    const mixed = await Promise.all([upload('a.xlsx', maximal), upload('b.xlsx', maximal), upload('cards.xlsx', cards, 'dryRun=true', 'card')]);
    expect(mixed.filter((a) => a.code === 20000)).toHaveLength(2);
    expect(mixed.find((a) => a.code !== 20000)).toMatchObject({ code: ErrorCode.RATE_LIMITED, data: { reason: 'importBusy' } });
    // Once they are done, a card import runs.
    expect((await upload('cards.xlsx', cards, 'dryRun=true', 'card')).code).toBe(20000);
  }, 120_000);
});
