import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { ErrorCode } from '@iot/contract';
import { bearer, buildTestApp, createTestPostgres, type TestApp } from './helpers.js';
import { redisReachable, TEST_REDIS_URL, uniqueChannel } from './redis.js';
import { smtpSink } from './smtp.js';

/**
 * Several instances over one PostgreSQL database without Redis (issue #37, decision 0038): one
 * leads the once-only timers and another takes over when it goes; presence is decided against
 * the database, so no instance takes offline a device another one hears, nor logs a change twice.
 * On PGlite (one process's database) the single instance leads.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const withRedis = onPostgres && (await redisReachable());

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe.runIf(!onPostgres)('one instance on PGlite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it('leads from the start, and says so in /readyz', async () => {
    expect(t.app.leadership.leading).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ leader: true });
  });
});

describe.runIf(onPostgres)('two instances, one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  let bDatabase: Database;
  let token: string;
  let typeId: number;
  let seq = 0;
  const ingest = { offlineAfterMs: 1500, seenWriteMs: 200 };

  const ok = async (t: TestApp, method: 'GET' | 'POST', path: string, payload?: object) => {
    const r = (await t.app.inject({ method, url: `/api/v1${path}`, headers: bearer(token), payload })).json();
    if (r.code !== 20000) throw new Error(`${method} ${path}: ${JSON.stringify(r)}`);
    return r.data;
  };
  const addDevice = async () => {
    const sn = `INS-${++seq}`;
    const d = await ok(a, 'POST', '/device/add', { name: `Rack ${sn}`, sn, typeId });
    return { id: d.id as number, sn, secret: d.secret as string };
  };
  /** An HTTP device's telemetry through instance `t`, committed when it answers. */
  const report = async (t: TestApp, d: { sn: string; secret: string }, value: number) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/telemetry',
      headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
      payload: { ts: Date.now(), values: { T: value } },
    });
    expect(res.json().data.accepted).toBe(1);
  };
  const presenceLogs = async (deviceId: number) => {
    const res = await a.database.db.execute(
      sql`select kind from device_logs where device_id = ${deviceId} and kind in ('online', 'offline') order by id`,
    );
    return (res as unknown as { rows: { kind: string }[] }).rows.map((r) => r.kind);
  };
  const online = async (deviceId: number) => {
    const res = await a.database.db.execute(sql`select online from devices where id = ${deviceId}`);
    return (res as unknown as { rows: { online: boolean }[] }).rows[0]!.online;
  };

  beforeAll(async () => {
    a = await buildTestApp({}, { leaderRetryMs: 100, ingest });
    bDatabase = await openDatabase({ databaseUrl: a.database.url! });
    b = await buildTestApp({}, { database: bDatabase, leaderRetryMs: 100, ingest });
    token = await a.login();
    typeId = (await ok(a, 'POST', '/devicetype/addtype', { code: 'INS', name: '实例测试', nameEn: 'Instances test' })).id;
    await ok(a, 'POST', '/devicetype/addsetparam', {
      id: typeId,
      params: [{ semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number', sort: 1 }],
    });
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  it('one instance leads; when its lock’s connection is lost the other takes over, and the first follows', async () => {
    // A started first and took the lock at once; B tries again every 100 ms, in vain.
    expect(a.app.leadership.leading).toBe(true);
    expect(b.app.leadership.leading).toBe(false);
    expect((await b.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ status: 'ok', leader: false });

    // A's lock session dies (a network cut, an administrator's pg_terminate_backend).
    const admin = new pg.Client({ connectionString: a.database.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        `select pg_terminate_backend(pid) as ok from pg_locks l join pg_stat_activity s using (pid)
         where l.locktype = 'advisory' and l.granted and l.database = (select oid from pg_database where datname = current_database())
           and s.application_name like 'iot-console leader%'`,
      );
      expect(killed.rows).toHaveLength(1);
    } finally {
      await admin.end();
    }
    await until('B leads', () => b.app.leadership.leading);
    await until('A follows', () => !a.app.leadership.leading);
    expect((await a.app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ leader: false });
    expect(b.app.leadership.leading).toBe(true);
  });

  it('instances starting together on an empty database migrate one after the other', async () => {
    const fresh = await createTestPostgres('iot_test_migrate');
    try {
      const opened = await Promise.allSettled([0, 1, 2].map(() => openDatabase({ databaseUrl: fresh.url })));
      for (const o of opened) if (o.status === 'fulfilled') await o.value.close();
      expect(opened.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    } finally {
      await fresh.drop();
    }
  });

  it('a device reporting through both instances is logged online once, not once per instance', async () => {
    const d = await addDevice();
    await report(a, d, 1);
    await report(b, d, 2);
    await report(a, d, 3);
    expect(await presenceLogs(d.id)).toEqual(['online']);
    expect(await online(d.id)).toBe(true);
  });

  it('an instance that stops hearing a device does not take it offline while the other hears it; silence takes it offline once', async () => {
    const d = await addDevice();
    await report(a, d, 1);
    // From now on only B hears it, for longer than the offline timeout; A's sweeps run meanwhile.
    const end = Date.now() + ingest.offlineAfterMs * 2;
    while (Date.now() < end) {
      await report(b, d, 2);
      await new Promise((r) => setTimeout(r, 100));
    }
    await a.app.ingest.sweep();
    expect(await online(d.id)).toBe(true);
    expect(await presenceLogs(d.id)).toEqual(['online']);

    // Silent now: it goes offline, whichever instance sees it first, and is logged once.
    await until('offline', async () => !(await online(d.id)), 10_000);
    await a.app.ingest.sweep();
    await b.app.ingest.sweep();
    expect(await presenceLogs(d.id)).toEqual(['online', 'offline']);

    // Back through A (which may still think it online): online again, logged once.
    await report(a, d, 3);
    await report(b, d, 4);
    expect(await online(d.id)).toBe(true);
    expect(await presenceLogs(d.id)).toEqual(['online', 'offline', 'online']);
  });
});

describe.runIf(withRedis)('two instances with Redis: limits counted together', () => {
  let a: TestApp;
  let b: TestApp;
  let bDatabase: Database;
  let admin: string;
  let sink: Awaited<ReturnType<typeof smtpSink>>;

  beforeAll(async () => {
    sink = await smtpSink();
    const env = {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_CHANNEL: uniqueChannel('instances'),
      API_RATE_LIMIT: '60',
      LOGIN_LOCKOUT: 'off',
      SMTP_URL: sink.url,
      ALARM_MAIL_INTERVAL: '1h',
    };
    a = await buildTestApp(env);
    bDatabase = await openDatabase({ databaseUrl: a.database.url! });
    b = await buildTestApp(env, { database: bDatabase });
    admin = await a.login();
  });
  afterAll(async () => {
    await b?.close();
    await bDatabase?.close();
    await a?.close();
    await sink?.close();
  });

  /** A device type with one integer parameter F (device alarms), and a device of it in a project of the admin's. */
  const alarmDevice = async (code: string, sn: string) => {
    const ok = async (path: string, payload?: object) => {
      const r = (await a.app.inject({ method: payload ? 'POST' : 'GET', url: `/api/v1${path}`, headers: bearer(admin), payload })).json();
      if (r.code !== 20000) throw new Error(`${path}: ${JSON.stringify(r)}`);
      return r.data;
    };
    const typeId = (await ok('/devicetype/addtype', { code, name: code, nameEn: code })).id;
    await ok('/devicetype/addsetparam', { id: typeId, params: [{ semaphoreId: 'F', name: '故障', nameEn: 'Fault', dataType: 'integer', sort: 1 }] });
    const project = await ok('/project/addproject', { name: `P ${sn}`, ownerId: 1 });
    const added = await ok('/device/add', { name: `Rack ${sn}`, sn, typeId, projectId: project.id });
    const auth = { authorization: `Basic ${Buffer.from(`${sn}:${added.secret}`).toString('base64')}` };
    const alarm = async (t: TestApp, flag: 0 | 1, ts: number) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/alarm', headers: auth, payload: { ts, id: 'F', flag, value: flag, level: 4 } });
      expect(res.json().data.accepted).toBe(1);
    };
    return { id: added.id as number, alarm, ok };
  };

  it('an alarm flapping between instances is mailed once per interval, not once per instance', async () => {
    const d = await alarmDevice('INSM', 'INSM-1');
    await d.ok('/user/addemail', { userId: 1, email: 'owner@example.test' });
    const now = Date.now();
    await d.alarm(a, 1, now - 5000);
    await expect.poll(() => sink.mails.length, { timeout: 10_000 }).toBe(1);
    // Ends and starts again through B, within the interval: B does not mail it again.
    await d.alarm(b, 0, now - 4000);
    await d.alarm(b, 1, now - 3000);
    // A second device's alarm through B, started after: mailed. B's announcement of the flapping
    // device started first and takes the same steps, so a mail of it would have come first.
    const marker = await alarmDevice('INSN', 'INSN-1');
    await marker.alarm(b, 1, now - 2000);
    await expect.poll(() => sink.mails.length, { timeout: 10_000 }).toBe(2);
    expect(sink.mails.map((m) => /INSM-1|INSN-1/.exec(m.data)?.[0])).toEqual(['INSM-1', 'INSN-1']);
  });

  it('one session’s requests alternating between instances share API_RATE_LIMIT', async () => {
    const token = await a.login();
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) {
      const t = i % 2 === 0 ? a : b;
      codes.push((await t.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: bearer(token) })).json().code);
    }
    expect(codes.slice(0, 60)).toEqual(Array(60).fill(20000));
    expect(codes[60]).toBe(ErrorCode.RATE_LIMITED);
    // Another session has its own budget, on either instance.
    const other = await b.login();
    expect((await a.app.inject({ method: 'GET', url: '/api/v1/user/info', headers: bearer(other) })).json().code).toBe(20000);
  });

  it('logins from one address alternating between instances share the login limit (30 a minute)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 31; i++) {
      const t = i % 2 === 0 ? a : b;
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', remoteAddress: '198.51.100.7', payload: { username: 'nobody', password: 'wrong-pass' } });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 30).every((c) => c !== 429)).toBe(true);
    expect(codes[30]).toBe(429);
  });

  it('a device alarm raised through A is ended through B, whose memory of the device was older', async () => {
    const { id, alarm } = await alarmDevice('INSA', 'INSA-1');
    const active = async () => {
      const res = await a.database.db.execute(sql`select count(*)::int as n from alarms where device_id = ${id} and ended_at is null`);
      return (res as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    const now = Date.now();
    // B learns the device (no alarm), then A raises one: B's memory has none.
    await alarm(b, 0, now - 3000);
    await alarm(a, 1, now - 2000);
    expect(await active()).toBe(1);
    // The end reaches B (the broker's shared subscription may hand it any instance).
    await alarm(b, 0, now - 1000);
    expect(await active()).toBe(0);
  });

  it('a rule’s hold counts the values every instance saw: a recovery seen by B resets a breach A holds', async () => {
    const ok = async (path: string, payload: object) => {
      const r = (await a.app.inject({ method: 'POST', url: `/api/v1${path}`, headers: bearer(admin), payload })).json();
      if (r.code !== 20000) throw new Error(`${path}: ${JSON.stringify(r)}`);
      return r.data;
    };
    const typeId = (await ok('/devicetype/addtype', { code: 'INSH', name: '保持', nameEn: 'Hold' })).id;
    await ok('/devicetype/addsetparam', { id: typeId, params: [{ semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number', sort: 1 }] });
    await ok('/devicetype/addsetalarm', { id: typeId, rules: [{ semaphoreId: 'T', comparison: 'gt', threshold: 50, level: 3, message: '过热', holdSeconds: 10 }] });
    const added = await ok('/device/add', { name: 'Hold rack', sn: 'INSH-1', typeId });
    const auth = { authorization: `Basic ${Buffer.from(`INSH-1:${added.secret}`).toString('base64')}` };
    const t0 = Date.now() - 60_000;
    const send = async (t: TestApp, s: number, T: number) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', headers: auth, payload: { ts: t0 + s * 1000, values: { T } } });
      expect(res.json().data.accepted).toBe(1);
    };
    const alarms = async () => {
      const res = await a.database.db.execute(sql`select count(*)::int as n from alarms where device_id = ${added.id}`);
      return (res as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    await send(a, 0, 60);
    await send(b, 5, 20); // recovered: the breach A began is over
    await send(a, 11, 60); // a new breach, not 11 s of one
    expect(await alarms()).toBe(0);
    await send(b, 22, 60); // 11 s of the breach A saw begin: held long enough
    expect(await alarms()).toBe(1);
    // The hold ended with the start: no row is kept for it.
    const holds = await a.database.db.execute(sql`select count(*)::int as n from alarm_holds where device_id = ${added.id}`);
    expect((holds as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});
