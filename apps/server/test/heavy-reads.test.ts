import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { SUPERADMIN } from '@iot/contract';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { createPartition } from '../src/telemetry/ingest.repo.js';

const DAY = 86_400_000;
const isPostgres = process.env.TEST_DB === 'postgres';

/** A promise the test settles itself: a heavy read held open for as long as the test needs. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Heavy reads (routes declared `heavy` in the contract) are bounded per user and overall, and on
 * PostgreSQL stopped by the statement limit and cancelled when their caller leaves.
 */
describe('heavy reads', () => {
  let t: TestApp;
  let admin: string;
  let typeId: number;
  let base: string;

  const get = async (url: string, token: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) });
    return { status: res.statusCode, body: res.json() };
  };
  const addDevice = async (sn: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/device/add', headers: bearer(admin), payload: { name: sn, sn, typeId } });
    expect(res.json().code, res.body).toBe(20000);
    return res.json().data.id as number;
  };
  /** A super administrator of its own (each test counts its own user's reads). */
  const superUser = async (name: string) => {
    const id = await t.createUser({ username: name, password: 'heavy-pass-1', role: SUPERADMIN });
    return { id, token: await t.login(name, 'heavy-pass-1') };
  };
  const historyUrl = (id: number, days = 7) => {
    const to = Date.now();
    return `/device/devicehistoricallist?id=${id}&semaphoreIds=01111001&from=${new Date(to - days * DAY).toISOString()}&to=${new Date(to).toISOString()}`;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
    admin = await t.login();
    typeId = (await get('/devicetype/typeoptionslist', admin)).body.data.find((x: { code: string }) => x.code === 'BMU').id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs two heavy reads of a user, queues two more, refuses the fifth, while another user reads', async () => {
    const device = await addDevice('HEAVY-QUEUE');
    const a = await superUser('heavy-a');
    const b = await superUser('heavy-b');
    // Two reads of user a held open inside the limiter (the two running slots a user has).
    const held = gate();
    const holders = [0, 1].map(() => t.app.heavyReads.run(a.id, new AbortController().signal, () => held.opened));
    await vi.waitFor(() => expect(t.app.heavyReads.pendingOf(a.id)).toBe(2));

    const third = get(historyUrl(device), a.token);
    await vi.waitFor(() => expect(t.app.heavyReads.pendingOf(a.id)).toBe(3));
    const fourth = get(`/device/devicehistoricallisttoecharts?id=${device}&semaphoreIds=01111001&from=${new Date(Date.now() - DAY).toISOString()}&to=${new Date().toISOString()}`, a.token);
    await vi.waitFor(() => expect(t.app.heavyReads.pendingOf(a.id)).toBe(4));

    const fifth = await get(historyUrl(device), a.token);
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ code: 42900, data: { reason: 'heavyReadsPerUser', params: { max: 2 } } });
    expect(fifth.body.data.retryAfter).toBeGreaterThan(0);

    // User b is not behind user a's queue.
    const other = await get(historyUrl(device), b.token);
    expect(other.body.code, JSON.stringify(other.body)).toBe(20000);
    expect(t.app.heavyReads.pendingOf(a.id)).toBe(4);

    held.open();
    await Promise.all(holders);
    expect((await third).body.code).toBe(20000);
    expect((await fourth).body.code).toBe(20000);
    expect(t.app.heavyReads.pendingOf(a.id)).toBe(0);
  });

  it('gives a queued read’s place up when its caller disconnects', async () => {
    const device = await addDevice('HEAVY-LEAVE');
    const a = await superUser('heavy-leave');
    const held = gate();
    const holders = [0, 1].map(() => t.app.heavyReads.run(a.id, new AbortController().signal, () => held.opened));
    await vi.waitFor(() => expect(t.app.heavyReads.pendingOf(a.id)).toBe(2));

    const caller = new AbortController();
    const queued = fetch(base + historyUrl(device), { headers: bearer(a.token), signal: caller.signal }).catch((err: Error) => err.name);
    await vi.waitFor(() => expect(t.app.heavyReads.pendingOf(a.id)).toBe(3));
    caller.abort();
    expect(await queued).toBe('AbortError');
    await vi.waitFor(() => expect(t.app.heavyReads.pendingOf(a.id)).toBe(2));

    held.open();
    await Promise.all(holders);
    expect(t.app.heavyReads.pendingOf(a.id)).toBe(0);
  });

  it('refuses an over-long range naming the field, and takes what the console asks', async () => {
    const device = await addDevice('HEAVY-RANGE');
    const to = Date.UTC(2026, 5, 1);
    const energy = (days: number, granularity: string) =>
      get(`/device/totalElectrictityConsumption?id=${device}&from=${new Date(to - days * DAY).toISOString()}&to=${new Date(to).toISOString()}&granularity=${granularity}`, admin);

    const byDay = await energy(399, 'day');
    expect(byDay.status).toBe(400);
    expect(byDay.body).toMatchObject({ code: 40000, data: { field: 'to', reason: 'energyRangeTooLong', params: { max: 92 } } });
    expect((await energy(401, 'month')).body).toMatchObject({ code: 40000, data: { field: 'to' } });
    // The energy tab's three spans: 30 days by day, 26 weeks, 12 months.
    for (const [days, g] of [[30, 'day'], [182, 'week'], [365, 'month'], [92, 'day']] as const) {
      expect((await energy(days, g)).body.code, `${days} days by ${g}`).toBe(20000);
    }
    const history = await get(historyUrl(device, 401), admin);
    expect(history.body).toMatchObject({ code: 40000, data: { field: 'to' } });
    expect((await get(historyUrl(device, 365), admin)).body.code).toBe(20000);
  });

  it('exports every row of a range as CSV, past the chunks the text is built in', async () => {
    const device = await addDevice('HEAVY-CSV');
    const day = Date.UTC(2026, 2, 3);
    await createPartition(t.database.db, new Date(day));
    // 12,001 messages one per 5 s: three chunks of the CSV and a bit.
    await t.database.db.execute(sql`
      insert into telemetry (device_id, ts, vals)
      select ${device}, to_timestamp(${day / 1000} + s * 5), jsonb_build_object('01111001', s)
      from generate_series(0, 12000) s`);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/device/devicehistoricallist/export?id=${device}&semaphoreIds=01111001&from=${new Date(day).toISOString()}&to=${new Date(day + DAY).toISOString()}&format=csv`,
      headers: bearer(admin),
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines).toHaveLength(12_002);
    expect(lines[1]).toBe(`${new Date(day).toISOString()},0`);
    expect(lines.at(-1)).toBe(`${new Date(day + 12_000 * 5000).toISOString()},12000`);
  });

  describe('on PostgreSQL', () => {
    /** A client of the test's database holding telemetry locked: every read of it waits. */
    const lockTelemetry = async () => {
      const client = new pg.Client({ connectionString: t.database.url });
      await client.connect();
      await client.query('begin');
      await client.query('lock table telemetry in access exclusive mode');
      return {
        client,
        async release() {
          await client.query('rollback');
          await client.end();
        },
      };
    };
    /** The heavy pool's statements reading telemetry (asked outside a transaction: a fresh snapshot each time). */
    const runningReads = async (client: pg.Client) =>
      (
        await client.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = current_database() and application_name = 'iot-console heavy'
             and state = 'active' and query like '%telemetry%'`,
        )
      ).rows;

    it.skipIf(!isPostgres)('cancels the running statement when the caller disconnects, and frees its slot', async () => {
      const device = await addDevice('HEAVY-CANCEL');
      const a = await superUser('heavy-cancel');
      const lock = await lockTelemetry();
      const observer = new pg.Client({ connectionString: t.database.url });
      await observer.connect();
      try {
        const caller = new AbortController();
        const read = fetch(base + historyUrl(device, 365), { headers: bearer(a.token), signal: caller.signal }).catch((err: Error) => err.name);
        await vi.waitFor(async () => expect(await runningReads(observer)).not.toEqual([]), { timeout: 5000 });
        caller.abort();
        expect(await read).toBe('AbortError');
        // Still locked: only the cancel can have ended it.
        await vi.waitFor(async () => expect(await runningReads(observer)).toEqual([]), { timeout: 2000, interval: 50 });
        await vi.waitFor(() => expect(t.app.heavyReads.pendingOf(a.id)).toBe(0), { timeout: 2000 });
      } finally {
        await observer.end();
        await lock.release();
      }
    });

    it.skipIf(!isPostgres)('answers a read stopped at the statement limit with 50300 queryTimeout, not a 500', async () => {
      const short = await buildTestApp({ DATABASE_STATEMENT_TIMEOUT: '1' });
      try {
        const token = await short.login();
        const type = (await short.app.inject({ method: 'GET', url: '/api/v1/devicetype/typeoptionslist', headers: bearer(token) })).json().data.find(
          (x: { code: string }) => x.code === 'BMU',
        ).id;
        const added = await short.app.inject({ method: 'POST', url: '/api/v1/device/add', headers: bearer(token), payload: { name: 'slow', sn: 'HEAVY-SLOW', typeId: type } });
        const client = new pg.Client({ connectionString: short.database.url });
        await client.connect();
        await client.query('begin');
        await client.query('lock table telemetry in access exclusive mode');
        try {
          const res = await short.app.inject({ method: 'GET', url: `/api/v1${historyUrl(added.json().data.id, 30)}`, headers: bearer(token) });
          expect(res.statusCode).toBe(503);
          expect(res.json()).toMatchObject({ code: 50300, data: { reason: 'queryTimeout' } });
          expect(res.json().message).toMatch(/too long/);
        } finally {
          await client.query('rollback');
          await client.end();
        }
      } finally {
        await short.close();
      }
    });
  });
});
