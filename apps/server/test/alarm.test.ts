import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { ErrorCode, LiveType, type LiveServerMessage } from '@iot/contract';
import { readSheet } from '../src/lib/sheet.js';
import { AlarmEngine, DEFAULT_ENGINE, type AlarmChange, type EngineBatch } from '../src/telemetry/alarm.engine.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';
import { smtpSink } from './smtp.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** A mail's headers and text, its transfer encoding (base64 or quoted-printable) undone. */
function readable(raw: string): string {
  const at = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, at);
  const body = raw.slice(at + 4);
  if (/Content-Transfer-Encoding: base64/i.test(head)) return `${head}\n\n${Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')}`;
  const flat = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < flat.length; i++) {
    const m = /^=([0-9A-F]{2})/.exec(flat.slice(i, i + 3));
    if (m) {
      bytes.push(parseInt(m[1]!, 16));
      i += 2;
    } else bytes.push(...Buffer.from(flat[i]!, 'utf8'));
  }
  return `${head}\n\n${Buffer.from(bytes).toString('utf8')}`;
}

/** The alarm engine and alarm handling, through the real HTTP ingestion into the real database. */
describe('alarms', () => {
  let t: TestApp;
  let token: string;
  let typeId: number;
  const base = Date.now() - 3_600_000;
  const at = (s: number) => base + s * 1000;

  const api = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, tok = token) =>
    (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(tok), payload })).json();
  const ok = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => {
    const r = await api(method, url, payload);
    expect(r.code, JSON.stringify(r)).toBe(20000);
    return r.data;
  };

  const addDevice = async (sn: string) => {
    const d = await ok('POST', '/device/add', { name: `Rack ${sn}`, sn, typeId });
    return { id: d.id as number, sn, secret: d.secret as string };
  };
  const basic = (d: { sn: string; secret: string }) => ({ authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` });
  const send = async (d: { sn: string; secret: string }, kind: string, body: object) => {
    const r = await t.app.inject({ method: 'POST', url: `/api/v1/ingest/${kind}`, headers: basic(d), payload: body });
    expect(r.json().code, r.body).toBe(20000);
  };
  const value = (d: { sn: string; secret: string }, s: number, vals: Record<string, unknown>) => send(d, 'telemetry', { ts: at(s), values: vals });
  const alarmsOf = async (deviceId: number) =>
    (await ok('GET', `/device/alarmlist?deviceId=${deviceId}&sort=startedAt&order=asc&limit=100`)).items as {
      id: number; level: number; semaphoreId: string; startedAt: string; endedAt: string | null; state: string; source: string; note: string; processedBy: string | null;
    }[];
  const alarmsOfDevice = (id: number) => alarmsOf(id);
  const warning = async (id: number) => (await ok('GET', `/device/basic?id=${id}`)).warningLevel as number;

  beforeAll(async () => {
    t = await buildTestApp({}, { ingest: { seenWriteMs: 0, writer: { maxRows: 500, flushMs: 5, maxQueued: 5000, concurrency: 3 } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    token = await t.login();
    typeId = (await ok('POST', '/devicetype/addtype', { code: 'ALM', name: '告警测试', nameEn: 'Alarm test' })).id;
    await ok('POST', '/devicetype/addsetparam', {
      id: typeId,
      params: [
        { semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number', sort: 1 },
        { semaphoreId: 'V', name: '电压', nameEn: 'Voltage', dataType: 'number', sort: 2 },
        { semaphoreId: 'F', name: '故障', nameEn: 'Fault', dataType: 'integer', sort: 3 },
      ],
    });
    await ok('POST', '/devicetype/addsetalarm', {
      id: typeId,
      rules: [
        { semaphoreId: 'T', comparison: 'gt', threshold: 50, level: 3, message: '温度过高', messageEn: 'Too hot', messageEs: 'Demasiado caliente', holdSeconds: 10 },
        { semaphoreId: 'V', comparison: 'lt', threshold: 10, level: 2, message: '欠压', messageEn: 'Under-voltage' },
        { semaphoreId: 'V', comparison: 'lt', threshold: 5, level: 4, message: '严重欠压', messageEn: 'Severe under-voltage' },
      ],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts an alarm only after the hold duration in device time, ends it on recovery, and a later breach is a new one', async () => {
    const d = await addDevice('ALM-HOLD');
    // All sent within milliseconds: only the device times decide.
    await value(d, 0, { T: 60 });
    await value(d, 5, { T: 61 });
    expect(await alarmsOf(d.id)).toHaveLength(0);
    expect(await warning(d.id)).toBe(0);
    await value(d, 10, { T: 62 });
    let list = await alarmsOf(d.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ level: 3, endedAt: null, state: 'untreated', source: 'rule', startedAt: new Date(at(10)).toISOString() });
    expect(await warning(d.id)).toBe(3);
    // Recovery holds as long: one good value alone does not end it.
    await value(d, 11, { T: 40 });
    expect((await alarmsOf(d.id))[0]!.endedAt).toBeNull();
    await value(d, 21, { T: 41 });
    list = await alarmsOf(d.id);
    expect(list[0]!.endedAt).toBe(new Date(at(21)).toISOString());
    expect(await warning(d.id)).toBe(0);
    // A breach shorter than the hold: nothing; a later full one: a new record.
    await value(d, 30, { T: 70 });
    await value(d, 35, { T: 40 });
    await value(d, 40, { T: 70 });
    await value(d, 50, { T: 70 });
    list = await alarmsOf(d.id);
    expect(list).toHaveLength(2);
    expect(list[1]).toMatchObject({ endedAt: null, startedAt: new Date(at(50)).toISOString() });
    // Late data older than what was evaluated changes nothing.
    await value(d, 45, { T: 10 });
    expect(await alarmsOf(d.id)).toHaveLength(2);
  });

  it('20 duplicate breaching messages in parallel and a replay create exactly one alarm', async () => {
    const d = await addDevice('ALM-DUP');
    await Promise.all(Array.from({ length: 20 }, () => value(d, 100, { V: 8 })));
    await value(d, 100, { V: 8 });
    const list = await alarmsOf(d.id);
    expect(list).toHaveLength(1);
    // The database itself refuses a second active alarm of the same device and rule.
    const [row] = rowsOf<{ rule_key: string }>(await t.database.db.execute(sql`select rule_key from alarms where id = ${list[0]!.id}`));
    await expect(
      t.database.db.execute(sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at)
        values (${d.id}, ${row!.rule_key}, 'rule', 'V', 2, now())`),
    ).rejects.toThrow();
  });

  it('parallel batches of the same devices starting and ending alarms all commit (no deadlock between batches)', async () => {
    // Several batches at once (concurrency 3) each hold rows of the same devices, and every value
    // starts or ends an alarm: the warning-level update and the latest-values upsert of two batches
    // once took the same two rows in opposite orders, and PostgreSQL killed one batch (a 500).
    // 15 messages a device: under its rate limit (20 a second).
    const devs = await Promise.all(Array.from({ length: 10 }, (_, i) => addDevice(`ALM-PAR-${i}`)));
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        devs.flatMap((d) => Array.from({ length: 5 }, (_, i) => value(d, 1000 + round * 5 + i, { V: (round * 5 + i) % 2 === 0 ? 8 : 12 }))),
      );
    }
    await Promise.all(devs.map((d) => value(d, 2000, { V: 12 })));
    for (const d of devs) {
      const list = await alarmsOf(d.id);
      expect(list.length).toBeGreaterThan(0);
      expect(list.every((a) => a.endedAt !== null)).toBe(true);
      expect(await warning(d.id)).toBe(0);
    }
  });

  it('a second engine on the same database (another instance, or a restart) never opens a duplicate', async () => {
    const d = await addDevice('ALM-RESTART');
    await value(d, 0, { V: 9 });
    expect(await alarmsOf(d.id)).toHaveLength(1);
    // The engine's memory is gone (as after a restart): the same breach again opens nothing…
    t.app.alarmEngine.forget();
    await value(d, 1, { V: 9 });
    expect(await alarmsOf(d.id)).toHaveLength(1);
    // … and the next recovering value ends the alarm that was active before.
    t.app.alarmEngine.forget();
    await value(d, 2, { V: 12 });
    expect((await alarmsOf(d.id))[0]!.endedAt).toBe(new Date(at(2)).toISOString());
  });

  it('two engines (two server processes) applying the same breach at once, each in its own transaction, open exactly one alarm', async () => {
    const d = await addDevice('ALM-TWO');
    // Separate engines: no shared memory, no shared promise chain; only the database decides.
    const engines = [new AlarmEngine(DEFAULT_ENGINE), new AlarmEngine(DEFAULT_ENGINE)];
    // On PostgreSQL both transactions are open before either evaluates, so each reads "no alarm"
    // and both insert; PGlite runs transactions one after the other (the second then reads the
    // first's committed alarm).
    const together = t.database.engine === 'postgres';
    let inside = 0;
    let release!: () => void;
    const bothInside = new Promise<void>((r) => (release = r));
    const run = (engine: AlarmEngine) =>
      t.database.db.transaction(async (tx): Promise<AlarmChange[]> => {
        if (together) {
          await tx.execute(sql`select 1`);
          if (++inside === 2) release();
          await bothInside;
        }
        const batch: EngineBatch = { telemetry: [{ deviceId: d.id, ts: new Date(at(0)).toISOString(), vals: { V: 8 } }], logs: [] };
        const last = await engine.apply(tx, batch);
        await last?.(tx); // the warning level, as a batch runs it: last
        return engine.takeCommitted(batch);
      });
    const changes = await Promise.all(engines.map(run));
    expect(changes.flat().filter((c) => c.event === 'started')).toHaveLength(1);
    const [row] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::int as n from alarms where device_id = ${d.id} and ended_at is null`),
    );
    expect(row!.n).toBe(1);
    expect(await alarmsOf(d.id)).toHaveLength(1);
    expect(await warning(d.id)).toBe(2);
  });

  it('the warning level follows the worst active alarm', async () => {
    const d = await addDevice('ALM-LEVEL');
    await value(d, 0, { V: 3 }); // both voltage rules: levels 2 and 4
    expect((await alarmsOf(d.id)).map((a) => a.level).sort()).toEqual([2, 4]);
    expect(await warning(d.id)).toBe(4);
    await value(d, 1, { V: 7 }); // the level-4 rule recovers, level 2 stays
    expect(await warning(d.id)).toBe(2);
    await value(d, 2, { V: 12 });
    expect(await warning(d.id)).toBe(0);
    const groups = await ok('GET', `/device/alarmgroupinfo?deviceId=${d.id}`);
    expect(groups).toMatchObject({ total: 2, active: 0 });
    expect(groups.byLevel).toEqual([{ level: 1, count: 0 }, { level: 2, count: 1 }, { level: 3, count: 0 }, { level: 4, count: 1 }]);
  });

  it('the warning level is read-only: add and edit cannot set it, only alarms do', async () => {
    const d = await ok('POST', '/device/add', { name: 'Rack ALM-RO', sn: 'ALM-RO', typeId, warningLevel: 4 });
    expect(await warning(d.id)).toBe(0);
    const dev = { id: d.id as number, sn: 'ALM-RO', secret: d.secret as string };
    await value(dev, 0, { V: 8 }); // level 2
    expect(await warning(dev.id)).toBe(2);
    // An edit sending a stale or made-up level (as an old form would) changes the rest, not the level.
    await ok('POST', '/device/edit', { id: dev.id, name: 'Rack ALM-RO 2', warningLevel: 0 });
    await ok('POST', '/device/edit', { id: dev.id, warningLevel: 4 });
    expect(await ok('GET', `/device/basic?id=${dev.id}`)).toMatchObject({ name: 'Rack ALM-RO 2', warningLevel: 2 });
    const [log] = (await ok('GET', '/logs/list?action=device.edit&limit=1')).items as { summary: string }[];
    expect(log!.summary).not.toContain('warningLevel');
    await value(dev, 1, { V: 12 });
    expect(await warning(dev.id)).toBe(0);
  });

  it('device-raised alarms go through the same records, once', async () => {
    const d = await addDevice('ALM-DEV');
    await send(d, 'alarm', { ts: at(0), id: 'F', flag: 1, value: 7 });
    await send(d, 'alarm', { ts: at(0), id: 'F', flag: 1, value: 7 }); // replayed
    await send(d, 'alarm', { ts: at(1), id: 'F', flag: 1, value: 7 }); // a repeat while active
    let list = await alarmsOf(d.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ source: 'device', level: 2, endedAt: null });
    expect(await warning(d.id)).toBe(2);
    await send(d, 'alarm', { ts: at(5), id: 'F', flag: 0 });
    list = await alarmsOf(d.id);
    expect(list[0]!.endedAt).toBe(new Date(at(5)).toISOString());
    expect(await warning(d.id)).toBe(0);
  });

  it('a device-raised alarm takes the device’s own level when no rule names its parameter, the rule’s level otherwise', async () => {
    const d = await addDevice('ALM-DEV-LEVEL');
    await send(d, 'alarm', { ts: at(0), id: 'F', flag: 1, value: 7, level: 4 }); // no rule on F
    await send(d, 'alarm', { ts: at(0), id: 'T', flag: 1, value: 61, level: 1 }); // the T rule says 3
    const bySemaphore = Object.fromEntries((await alarmsOf(d.id)).map((a) => [a.semaphoreId, a.level]));
    expect(bySemaphore).toEqual({ F: 4, T: 3 });
    expect(await warning(d.id)).toBe(4);
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/alarm', headers: basic(d), payload: { id: 'F', flag: 1, level: 5 } });
    expect(refused.json().data).toMatchObject({ accepted: 0, rejected: [{ reason: 'invalidMessage' }] });
  });

  it('pushes started, ended and processed alarms live to exactly the users who may see the device', async () => {
    const d = await addDevice('ALM-LIVE');
    await t.createUser({ username: 'alm-stranger', password: 'stranger-pass-1', role: 'ADMIN' });
    const stranger = await t.login('alm-stranger', 'stranger-pass-1');
    const port = (t.app.server.address() as { port: number }).port;
    const open = async (tok: string, userId: number) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/ws`);
      const got: LiveServerMessage[] = [];
      ws.on('message', (raw) => got.push(JSON.parse(String(raw)) as LiveServerMessage));
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: LiveType.LOGIN, userId, token: tok, timestamp: Date.now() }));
      await expect.poll(() => got.some((m) => m.type === LiveType.LOGIN_OK)).toBe(true);
      return { ws, got };
    };
    const me = await open(token, 1);
    const strangerId = (await api('GET', '/user/info', undefined, stranger)).data.id as number;
    const other = await open(stranger, strangerId);
    const alarmsOf = (got: LiveServerMessage[]) =>
      got.flatMap((m) => (m.type === LiveType.ALARMS ? m.alarms.filter((a) => a.deviceId === d.id).map((a) => `${m.event}:${a.level}`) : []));

    await value(d, 0, { V: 9 });
    await expect.poll(() => alarmsOf(me.got)).toEqual(['started:2']);
    const [alarm] = await alarmsOfDevice(d.id);
    await ok('POST', '/device/processalarm', { ids: [alarm!.id], state: 'ignored', note: '' });
    await value(d, 1, { V: 11 });
    await expect.poll(() => alarmsOf(me.got)).toEqual(['started:2', 'processed:2', 'ended:2']);
    expect(alarmsOf(other.got)).toEqual([]);
    me.ws.close();
    other.ws.close();
  });

  it('processes alarms with a note, logs it, and refuses alarms of devices outside the caller’s subtree', async () => {
    const d = await addDevice('ALM-PROC');
    await value(d, 0, { V: 4 });
    const ids = (await alarmsOf(d.id)).map((a) => a.id);
    expect(ids).toHaveLength(2);
    const bell = await ok('GET', '/device/alarmbell');
    expect(bell.untreated).toBeGreaterThanOrEqual(2);

    // A user of another subtree sees none of them and cannot process them.
    await t.createUser({ username: 'alm-other', password: 'other-pass-1', role: 'ADMIN' });
    const other = await t.login('alm-other', 'other-pass-1');
    expect((await api('GET', `/device/alarmlist?deviceId=${d.id}`, undefined, other)).data.total).toBe(0);
    expect((await api('GET', '/device/alarmbell', undefined, other)).data.untreated).toBe(0);
    const refused = await api('POST', '/device/processalarm', { ids, state: 'processed', note: 'not mine' }, other);
    expect(refused).toMatchObject({ code: ErrorCode.NOT_FOUND, data: { reason: 'alarmsNotFound' } });
    expect((await alarmsOf(d.id)).every((a) => a.state === 'untreated')).toBe(true);

    const bad = await api('POST', '/device/processalarm', { ids: [], state: 'processed' });
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect((await ok('POST', '/device/processalarm', { ids, state: 'processed', note: 'Replaced the fuse' })).processed).toBe(2);
    expect(await alarmsOf(d.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ state: 'processed', note: 'Replaced the fuse', processedBy: 'admin' })]),
    );
    expect((await ok('GET', '/device/alarmbell')).untreated).toBe(bell.untreated - 2);
    const log = await ok('GET', '/logs/list?action=alarm.process&limit=5');
    expect(log.items.map((l: { result: string }) => l.result)).toEqual(expect.arrayContaining(['success', 'failure']));

    // Filters, sorting, export.
    const processed = await ok('GET', `/device/alarmlist?deviceId=${d.id}&state=processed&sort=level&order=desc`);
    expect(processed.items.map((a: { level: number }) => a.level)).toEqual([4, 2]);
    const file = await t.app.inject({ method: 'GET', url: `/api/v1/device/alarmexport?deviceId=${d.id}&lang=es`, headers: bearer(token) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
  });

  it('an alarm is seen by whoever sees its device: moving the device moves its alarms, old and new', async () => {
    const agentId = await t.createUser({ username: 'alm-scope', password: 'scope-pass-1', role: 'ADMIN' });
    const agent = await t.login('alm-scope', 'scope-pass-1');
    const own = (await ok('POST', '/project/addproject', { name: 'Scope agent', ownerId: agentId })).id as number;
    const admins = (await ok('POST', '/project/addproject', { name: 'Scope admin', ownerId: 1 })).id as number;
    const d = await addDevice('ALM-SCOPE');
    await value(d, 0, { V: 4 }); // levels 2 and 4
    // What the agent sees: the device in its device list, and that device's alarms in the alarm
    // list (one page and its total, one device's filter, untreated only) and the bell.
    const seen = async () => {
      const as = async (url: string) => {
        const r = await api('GET', url, undefined, agent);
        expect(r.code, JSON.stringify(r)).toBe(20000);
        return r.data;
      };
      const devices = await as('/device/list?q=ALM-SCOPE');
      const list = await as('/device/alarmlist?limit=20');
      const byDevice = await as('/device/alarmlist?device=alm-scope&state=untreated&limit=20');
      const bell = await as('/device/alarmbell');
      const sns = list.items.map((a: { sn: string }) => a.sn);
      expect(byDevice.total).toBe(list.total);
      expect(bell.untreated).toBe(list.total);
      return { device: devices.total as number, alarms: list.total as number, sns: [...new Set(sns)] };
    };
    expect(await seen()).toEqual({ device: 0, alarms: 0, sns: [] });
    // Into the agent's project: its alarms come with it (the device takes the project owner's line).
    await ok('POST', '/device/editdevicelistproject', { ids: [d.id], projectId: own });
    expect(await seen()).toEqual({ device: 1, alarms: 2, sns: ['ALM-SCOPE'] });
    // Into the administrator's: gone from the agent's lists, and it may not process them.
    await ok('POST', '/device/editdevicelistproject', { ids: [d.id], projectId: admins });
    expect(await seen()).toEqual({ device: 0, alarms: 0, sns: [] });
    const ids = (await alarmsOf(d.id)).map((a) => a.id);
    const refused = await api('POST', '/device/processalarm', { ids, state: 'processed', note: 'not mine' }, agent);
    expect(refused).toMatchObject({ code: ErrorCode.NOT_FOUND, data: { reason: 'alarmsNotFound' } });
    // Edited into the agent's project, the same rule: the agent's again. Taken out of any
    // project, it keeps that owner: still seen.
    await ok('POST', '/device/edit', { id: d.id, projectId: own });
    expect(await seen()).toEqual({ device: 1, alarms: 2, sns: ['ALM-SCOPE'] });
    await ok('POST', '/device/editdevicelistproject', { ids: [d.id], projectId: null });
    expect(await seen()).toEqual({ device: 1, alarms: 2, sns: ['ALM-SCOPE'] });
    // A new alarm raised after the moves is in the same scope, and the agent may process it.
    await value(d, 20, { T: 60 });
    await value(d, 31, { T: 61 });
    expect(await seen()).toEqual({ device: 1, alarms: 3, sns: ['ALM-SCOPE'] });
    const processed = await api('POST', '/device/processalarm', { ids, state: 'processed', note: 'mine now' }, agent);
    expect(processed).toMatchObject({ code: 20000, data: { processed: 2 } });
    await ok('DELETE', `/device/delete?id=${d.id}`);
  });

  it('filters one alarm (alarmId) and by device type; the export holds exactly the filtered rows', async () => {
    const d = await addDevice('ALM-FLT');
    await value(d, 0, { V: 4 }); // levels 2 and 4
    const [low, high] = (await alarmsOf(d.id)).sort((a, b) => a.level - b.level);
    expect([low!.level, high!.level]).toEqual([2, 4]);
    // One alarm, as the bell, the notification and the e-mail link it.
    const one = await ok('GET', `/device/alarmlist?alarmId=${high!.id}`);
    expect(one.total).toBe(1);
    expect(one.items.map((a: { id: number }) => a.id)).toEqual([high!.id]);
    expect(await ok('GET', `/device/alarmgroupinfo?alarmId=${high!.id}`)).toMatchObject({ total: 1, active: 1 });
    expect((await ok('GET', `/device/alarmlist?alarmId=${high!.id}&level=2`)).total).toBe(0);
    expect((await api('GET', '/device/alarmlist?alarmId=abc')).code).toBe(ErrorCode.VALIDATION);
    // Another subtree's user does not get it by its id.
    await t.createUser({ username: 'alm-flt-other', password: 'other-pass-1', role: 'ADMIN' });
    const other = await t.login('alm-flt-other', 'other-pass-1');
    expect((await api('GET', `/device/alarmlist?alarmId=${high!.id}`, undefined, other)).data.total).toBe(0);

    // A device of another type with its own alarm: the type filter keeps the types apart.
    const type2 = (await ok('POST', '/devicetype/addtype', { code: 'ALM2', name: '告警测试二' })).id as number;
    await ok('POST', '/devicetype/addsetparam', { id: type2, params: [{ semaphoreId: 'V', name: '电压', dataType: 'number' }] });
    await ok('POST', '/devicetype/addsetalarm', { id: type2, rules: [{ semaphoreId: 'V', comparison: 'lt', threshold: 10, level: 1, message: '欠压' }] });
    const d2raw = await ok('POST', '/device/add', { name: 'Rack ALM-FLT2', sn: 'ALM-FLT2', typeId: type2 });
    const d2 = { id: d2raw.id as number, sn: 'ALM-FLT2', secret: d2raw.secret as string };
    await value(d2, 0, { V: 4 });
    const ofType2 = await ok('GET', `/device/alarmlist?typeId=${type2}&limit=100`);
    expect(ofType2.items.map((a: { deviceId: number; typeId: number }) => [a.deviceId, a.typeId])).toEqual([[d2.id, type2]]);
    const ofType1 = await ok('GET', `/device/alarmlist?typeId=${typeId}&limit=100`);
    expect(ofType1.items.some((a: { deviceId: number }) => a.deviceId === d2.id)).toBe(false);
    expect(ofType1.items.some((a: { id: number }) => a.id === high!.id)).toBe(true);

    // The export: the same rows as the list for the same filters (the first column is the id).
    const exported = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/device/alarmexport?${query}&lang=en`, headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      const [header, ...rows] = await readSheet(res.rawPayload);
      expect(header![0]).toBe('ID');
      return rows.map((r) => Number(r[0]));
    };
    expect(await exported(`deviceId=${d.id}&level=4`)).toEqual([high!.id]);
    expect(await exported(`alarmId=${low!.id}`)).toEqual([low!.id]);
    expect(await exported(`typeId=${type2}`)).toEqual([ofType2.items[0].id]);
    expect((await exported(`typeId=${typeId}&sort=startedAt&order=desc`)).sort()).toEqual(
      ofType1.items.map((a: { id: number }) => a.id).sort(),
    );
    expect(await exported(`deviceId=${d.id}&state=processed`)).toEqual([]);

    // The second device given the first type: its alarm is listed under that type now.
    await ok('POST', '/device/edit', { id: d2.id, typeId });
    expect((await ok('GET', `/device/alarmlist?typeId=${type2}&limit=100`)).total).toBe(0);
    const moved = await ok('GET', `/device/alarmlist?typeId=${typeId}&deviceId=${d2.id}&limit=100`);
    expect(moved.items.map((a: { id: number; typeId: number }) => [a.id, a.typeId])).toEqual([[ofType2.items[0].id, typeId]]);
  });
});

describe('alarm e-mails', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let mails: { to: string[]; data: string }[];

  beforeAll(async () => {
    sink = await smtpSink();
    mails = sink.mails;
    t = await buildTestApp({
      SMTP_URL: sink.url,
      MAIL_FROM: 'Console <alarms@example.test>',
      ALARM_MAIL_MIN_LEVEL: '3',
      ALARM_MAIL_INTERVAL: '1h',
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('mails the project owner in their language, once per device and rule per interval', async () => {
    const token = await t.login();
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();
      expect(r.code, JSON.stringify(r)).toBe(20000);
      return r.data;
    };
    await call('POST', '/user/addemail', { userId: 1, email: 'owner@example.test' });
    await call('POST', '/user/preferences', { language: 'es' });
    const project = await call('POST', '/project/addproject', { name: 'Almacén', ownerId: 1 });
    const typeId = (await call('POST', '/devicetype/addtype', { code: 'MAIL', name: '邮件' })).id;
    await call('POST', '/devicetype/addsetparam', { id: typeId, params: [{ semaphoreId: 'T', name: '温度', nameEs: 'Temperatura', dataType: 'number' }] });
    await call('POST', '/devicetype/addsetalarm', {
      id: typeId,
      rules: [
        { semaphoreId: 'T', comparison: 'gt', threshold: 50, level: 3, message: '温度过高', messageEn: 'Too hot', messageEs: 'Demasiado caliente' },
        { semaphoreId: 'T', comparison: 'gt', threshold: 40, level: 1, message: '温度偏高' },
      ],
    });
    // Shared with two users: one opted in to alarm e-mails on their profile (in Japanese), one not.
    const sharedId = await t.createUser({ username: 'mail-shared', password: 'shared-pass-1', role: 'ADMIN' });
    const quietId = await t.createUser({ username: 'mail-quiet', password: 'quiet-pass-1', role: 'ADMIN' });
    await call('POST', '/user/addemail', { userId: sharedId, email: 'shared@example.test' });
    await call('POST', '/user/addemail', { userId: quietId, email: 'quiet@example.test' });
    const shared = await t.login('mail-shared', 'shared-pass-1');
    const asShared = await t.app.inject({ method: 'POST', url: '/api/v1/user/preferences', headers: bearer(shared), payload: { alarmMail: true, language: 'ja' } });
    expect(asShared.json().code).toBe(20000);
    await call('POST', '/project/setuserproject', { id: project.id, userIds: [sharedId, quietId] });
    const d = await call('POST', '/device/add', { name: 'Nevera', sn: 'MAIL-1', typeId, projectId: project.id });
    const basic = { authorization: `Basic ${Buffer.from(`MAIL-1:${d.secret}`).toString('base64')}` };
    const send = (s: number, v: number) =>
      t.app.inject({ method: 'POST', url: '/api/v1/ingest/telemetry', headers: basic, payload: { ts: Date.now() - 600_000 + s * 1000, values: { T: v } } });

    await send(0, 60); // level 3 and level 1 start: only level 3 is mailed
    await expect.poll(() => mails.length, { timeout: 10_000 }).toBe(2);
    const owner = mails.find((m) => m.to.includes('owner@example.test'))!;
    expect(mails.flatMap((m) => m.to).sort()).toEqual(['owner@example.test', 'shared@example.test']);
    const toShared = readable(mails.find((m) => m.to.includes('shared@example.test'))!.data);
    expect(toShared).toContain('レベル: 3'); // the shared user's language: Japanese
    expect(toShared).toContain('デバイス: Nevera (MAIL-1)');
    const decoded = readable(owner.data);
    expect(decoded).not.toContain('レベル');
    // The body in Spanish (the owner's language), the parameter's Spanish name.
    expect(decoded).toContain('Nivel: 3');
    expect(decoded).toContain('Dispositivo: Nevera (MAIL-1)');
    expect(decoded).toContain('Temperatura (T)');
    // Ends and starts again (a flapping device): no second mail within the interval.
    await send(1, 20);
    await send(2, 60);
    await send(3, 20);
    await send(4, 60);
    // A second device's alarm, started after them, is mailed. The flapping device's announcements
    // (one per committed batch) started before this one's and take the same steps, so a mail of
    // theirs would have arrived first.
    const marker = await call('POST', '/device/add', { name: 'Congelador', sn: 'MAIL-2', typeId, projectId: project.id });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/telemetry',
      headers: { authorization: `Basic ${Buffer.from(`MAIL-2:${marker.secret}`).toString('base64')}` },
      payload: { values: { T: 60 } },
    });
    await expect.poll(() => mails.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    expect(mails.slice(2).map((m) => readable(m.data).includes('(MAIL-2)'))).toEqual([true, true]);
  });
});

describe('alarm e-mails at each user’s own level', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof smtpSink>>;

  beforeAll(async () => {
    sink = await smtpSink();
    t = await buildTestApp({ SMTP_URL: sink.url, ALARM_MAIL_MIN_LEVEL: '3', ALARM_MAIL_INTERVAL: '1h' });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('a level-2 alarm is mailed to a user who chose levels 2–4, not to one on the default (3–4)', async () => {
    const token = await t.login();
    const call = async (method: 'GET' | 'POST', url: string, payload?: object, tok = token) => {
      const r = (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(tok), payload })).json();
      expect(r.code, JSON.stringify(r)).toBe(20000);
      return r.data;
    };
    const typeId = (await call('POST', '/devicetype/addtype', { code: 'LVL', name: '级别' })).id;
    await call('POST', '/devicetype/addsetparam', { id: typeId, params: [{ semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number' }] });
    await call('POST', '/devicetype/addsetalarm', {
      id: typeId,
      rules: [
        { semaphoreId: 'T', comparison: 'gt', threshold: 50, level: 2, message: '温度偏高', messageEn: 'Warm' },
        { semaphoreId: 'T', comparison: 'gt', threshold: 70, level: 3, message: '温度过高', messageEn: 'Too hot' },
      ],
    });
    // Two owners, each of one project with one device: one chose 2–4 on the profile page.
    const owners = [];
    for (const name of ['lvl-two', 'lvl-default']) {
      const id = await t.createUser({ username: name, password: `${name}-pass-1`, role: 'ADMIN' });
      await call('POST', '/user/addemail', { userId: id, email: `${name}@example.test` });
      const own = await t.login(name, `${name}-pass-1`);
      await call('POST', '/user/preferences', { language: 'en' }, own);
      const project = await call('POST', '/project/addproject', { name: `Site ${name}`, ownerId: id });
      const d = await call('POST', '/device/add', { name: `Rack ${name}`, sn: `LVL-${name}`, typeId, projectId: project.id });
      owners.push({ token: own, device: { sn: `LVL-${name}`, secret: d.secret as string } });
    }
    const [two, byDefault] = owners as [(typeof owners)[number], (typeof owners)[number]];
    await call('POST', '/user/preferences', { alarmMailLevel: 2 }, two.token);
    expect(await call('GET', '/user/info', undefined, two.token)).toMatchObject({ alarmMailLevel: 2, alarmPopupLevel: 3 });
    expect(await call('GET', '/user/info', undefined, byDefault.token)).toMatchObject({ alarmMailLevel: 3, alarmPopupLevel: 3 });

    const send = (d: { sn: string; secret: string }, s: number, v: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/telemetry',
        headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
        payload: { ts: Date.now() - 600_000 + s * 1000, values: { T: v } },
      });
    const to = (address: string) => sink.mails.filter((m) => m.to.includes(address)).map((m) => readable(m.data));
    await send(two.device, 0, 60); // level 2
    await send(byDefault.device, 0, 60); // level 2
    await expect.poll(() => to('lvl-two@example.test').length, { timeout: 10_000 }).toBe(1);
    expect(to('lvl-two@example.test')[0]).toContain('Level: 2 (Minor)');
    expect(to('lvl-two@example.test')[0]).toContain('Subject: [Minor alarm, level 2] Rack lvl-two (LVL-lvl-two): Warm');
    // Then a level-3 alarm of the same device: announced after the level-2 one, so a mail of the
    // level-2 alarm to the default user would have arrived first.
    await send(byDefault.device, 1, 80);
    await expect.poll(() => to('lvl-default@example.test').length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(to('lvl-default@example.test')).toHaveLength(1);
    expect(to('lvl-default@example.test')[0]).toContain('Level: 3 (Major)');
  });
});

describe('alarm e-mails without SMTP_URL', () => {
  let t: TestApp;
  const lines: string[] = [];

  beforeAll(async () => {
    // The server's own logger, writing where the test can read it.
    t = await buildTestApp(
      { LOG_LEVEL: 'info', ALARM_MAIL_MIN_LEVEL: '2', CONSOLE_URL: 'https://console.example.test/' },
      { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } },
    );
  });
  afterAll(() => t.close());

  it('logs the mail (recipients, subject, the link to the alarm) instead of dropping it', async () => {
    const token = await t.login();
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const r = (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();
      expect(r.code, JSON.stringify(r)).toBe(20000);
      return r.data;
    };
    await call('POST', '/user/addemail', { userId: 1, email: 'nosmtp@example.test' });
    await call('POST', '/user/preferences', { language: 'en' });
    const project = await call('POST', '/project/addproject', { name: 'Logged', ownerId: 1 });
    const typeId = (await call('POST', '/devicetype/addtype', { code: 'NOSMTP', name: '无邮件' })).id;
    await call('POST', '/devicetype/addsetparam', { id: typeId, params: [{ semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number' }] });
    await call('POST', '/devicetype/addsetalarm', { id: typeId, rules: [{ semaphoreId: 'T', comparison: 'gt', threshold: 50, level: 2, message: '温度过高', messageEn: 'Too hot' }] });
    const d = await call('POST', '/device/add', { name: 'Logged rack', sn: 'NOSMTP-1', typeId, projectId: project.id });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/telemetry',
      headers: { authorization: `Basic ${Buffer.from(`NOSMTP-1:${d.secret}`).toString('base64')}` },
      payload: { ts: Date.now() - 60_000, values: { T: 60 } },
    });
    expect(res.json().code).toBe(20000);
    const alarmId = (await call('GET', `/device/alarmlist?deviceId=${d.id}`)).items[0].id as number;
    const logged = () =>
      lines.map((l) => JSON.parse(l) as { msg: string; to?: string[]; subject?: string; text?: string }).filter((l) => l.msg.includes('SMTP_URL not set'));
    await expect.poll(() => logged().length, { timeout: 10_000 }).toBe(1);
    const [mail] = logged();
    expect(mail!.to).toEqual(['nosmtp@example.test']);
    expect(mail!.subject).toBe('[Minor alarm, level 2] Logged rack (NOSMTP-1): Too hot');
    expect(mail!.text).toContain(`https://console.example.test/project/alarminfo?alarmId=${alarmId}`);
  });
});
