import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AliyunNotices, rpcSignature } from '../src/modules/alarm/notice.aliyun.js';
import { SimulatedNotices } from '../src/modules/alarm/notice.provider.js';
import { AlarmNotifier } from '../src/modules/alarm/notice.service.js';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** The pieces every suite needs: an API caller, a device type with two rules, devices that send. */
function fleet(t: () => TestApp) {
  const call = async (method: 'GET' | 'POST', url: string, payload?: object, tok?: string) =>
    (await t().app.inject({ method, url: `/api/v1${url}`, headers: bearer(tok ?? (await adminToken())), payload })).json();
  let admin: string | undefined;
  const adminToken = async () => (admin ??= await t().login());
  const ok = async (method: 'GET' | 'POST', url: string, payload?: object, tok?: string) => {
    const r = await call(method, url, payload, tok);
    expect(r.code, JSON.stringify(r)).toBe(20000);
    return r.data;
  };
  const setup = async (code: string) => {
    const typeId = (await ok('POST', '/devicetype/addtype', { code, name: '电池', nameEn: 'Pack' })).id as number;
    await ok('POST', '/devicetype/addsetparam', { id: typeId, params: [{ semaphoreId: 'T', name: '温度', nameEn: 'Temperature', dataType: 'number' }] });
    await ok('POST', '/devicetype/addsetalarm', {
      id: typeId,
      rules: [
        { semaphoreId: 'T', comparison: 'gt', threshold: 40, level: 2, message: '温度偏高', messageEn: 'Warm' },
        { semaphoreId: 'T', comparison: 'gt', threshold: 60, level: 4, message: '电池过热', messageEn: 'Pack overheating' },
      ],
    });
    return typeId;
  };
  /** A user owning a project, with a contact number and SMS / call levels. */
  const owner = async (name: string, prefs: object) => {
    const id = await t().createUser({ username: name, password: `${name}-pass-1`, role: 'ADMIN' });
    const tok = await t().login(name, `${name}-pass-1`);
    await ok('POST', '/user/preferences', prefs, tok);
    const project = (await ok('POST', '/project/addproject', { name: `Site ${name}`, ownerId: id })).id as number;
    return { id, token: tok, project };
  };
  const device = async (sn: string, typeId: number, projectId: number, alarmPhone = '') => {
    const d = await ok('POST', '/device/add', { name: `Pack ${sn}`, sn, typeId, projectId, alarmPhone });
    return { id: d.id as number, sn, secret: d.secret as string };
  };
  const heat = (d: { sn: string; secret: string }, v: number) =>
    t().app.inject({
      method: 'POST',
      url: '/api/v1/ingest/telemetry',
      headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
      payload: { values: { T: v } },
    });
  const alarmIds = async (deviceId: number) =>
    Object.fromEntries(
      ((await ok('GET', `/device/alarmlist?deviceId=${deviceId}&limit=10`)).items as { id: number; level: number }[]).map((a) => [a.level, a.id]),
    ) as Record<number, number>;
  const notices = (alarmId: number, tok?: string) => ok('GET', `/device/alarmnotices?alarmId=${alarmId}`, undefined, tok);
  return { call, ok, setup, owner, device, heat, alarmIds, notices };
}

describe('alarm SMS and calls (simulated provider)', () => {
  let t: TestApp;
  const provider = new SimulatedNotices();
  const f = fleet(() => t);

  beforeAll(async () => {
    t = await buildTestApp({}, { notices: provider, noticePollMs: 60_000 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a severe alarm sends one SMS and one call to the user who chose it, nothing for a level not chosen', async () => {
    const typeId = await f.setup('SEV');
    const o = await f.owner('sev-owner', { contactNumber: '138 0000 1111', alarmSmsLevel: 4, alarmCallLevel: 4, language: 'en' });
    expect(await f.ok('GET', '/user/info', undefined, o.token)).toMatchObject({ alarmSmsLevel: 4, alarmCallLevel: 4 });
    const d = await f.device('SEV-1', typeId, o.project);
    await f.heat(d, 70); // level 2 and level 4 start together
    await expect.poll(() => provider.sent.filter((s) => s.phone === '13800001111').length, { timeout: 10_000 }).toBe(2);
    const ids = await f.alarmIds(d.id);
    expect(provider.sent.filter((s) => s.phone === '13800001111').map((s) => s.channel).sort()).toEqual(['call', 'sms']);
    expect(provider.sent.find((s) => s.phone === '13800001111')!.params).toMatchObject({ device: 'Pack SEV-1', sn: 'SEV-1', level: '4 Critical', alarm: 'Pack overheating' });
    // The alarm's history: both sent, masked; the level-2 alarm has none.
    const history = await f.notices(ids[4]!, o.token);
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({ recipient: 'user', username: 'sev-owner', phone: '138****1111', state: 'sent', attempts: 1, provider: 'simulated' });
    expect(history[0].tries).toEqual([expect.objectContaining({ ok: true, code: 'OK' })]);
    expect(await f.notices(ids[2]!, o.token)).toEqual([]);
    // Off again: null clears the level.
    await f.ok('POST', '/user/preferences', { alarmCallLevel: null }, o.token);
    expect(await f.ok('GET', '/user/info', undefined, o.token)).toMatchObject({ alarmSmsLevel: 4, alarmCallLevel: null });
  });

  it('calls the device alarm phone for a call-out; another user may not read the history; the demo fleet gets nothing', async () => {
    const typeId = await f.setup('PHN');
    const o = await f.owner('phn-owner', { contactNumber: '', alarmSmsLevel: 1 });
    const d = await f.device('PHN-1', typeId, o.project, '139 0000 2222, 139-0000-3333');
    await f.heat(d, 70);
    await expect.poll(() => provider.sent.filter((s) => s.phone.startsWith('1390000')).length, { timeout: 10_000 }).toBe(4);
    const ids = await f.alarmIds(d.id);
    const history = (await f.notices(ids[4]!)) as { recipient: string; channel: string; phone: string; state: string }[];
    expect(history.map((h) => `${h.recipient}:${h.channel}:${h.phone}:${h.state}`).sort()).toEqual([
      'device:call:139****2222:sent', 'device:call:139****3333:sent', 'device:sms:139****2222:sent', 'device:sms:139****3333:sent',
    ]);
    // Below ALARM_PHONE_MIN_LEVEL (3): the level-2 alarm was not a call-out to the device phone.
    expect(await f.notices(ids[2]!)).toEqual([]);
    // A user of another line does not see the alarm: refused as not found.
    const other = await f.owner('phn-other', {});
    const refused = await f.call('GET', `/device/alarmnotices?alarmId=${ids[4]}`, undefined, other.token);
    expect(refused.code).toBe(40400);

    const demo = await f.device('DEMO-0901', typeId, o.project, '139 0000 4444');
    await f.heat(demo, 70);
    const marker = await f.device('PHN-2', typeId, o.project, '139 0000 5555');
    await f.heat(marker, 70);
    // The marker's alarm is announced after the demo device's: its notices come after any of theirs.
    await expect.poll(() => provider.sent.filter((s) => s.phone === '13900005555').length, { timeout: 10_000 }).toBe(2);
    expect(provider.sent.filter((s) => s.phone === '13900004444')).toEqual([]);
    expect(await f.notices((await f.alarmIds(demo.id))[4]!)).toEqual([]);
  });
  it("the simulated provider's invalid number fails at once; its unreachable one is retried", async () => {
    const typeId = await f.setup('SIMF');
    const o = await f.owner('simf-owner', {});
    const d = await f.device('SIMF-1', typeId, o.project, '+999 1234 5678, +990 1234 5678');
    await f.heat(d, 70);
    const alarmId = async () => (await f.alarmIds(d.id))[4];
    await expect.poll(async () => (await alarmId()) !== undefined, { timeout: 10_000 }).toBe(true);
    const history = async () => (await f.notices((await alarmId())!)) as { phone: string; channel: string; state: string; attempts: number; nextAt: string | null; tries: { code: string; reason?: string }[] }[];
    await expect.poll(async () => (await history()).map((n) => n.tries.length), { timeout: 10_000 }).toEqual([1, 1, 1, 1]);
    const byPhone = (h: Awaited<ReturnType<typeof history>>, prefix: string) => h.filter((n) => n.phone.startsWith(prefix));
    const h = await history();
    // +999: invalid, failed after one attempt with its reason, no next try.
    expect(byPhone(h, '+99*').filter((n) => n.tries[0]!.code === 'sim.NUMBER_ILLEGAL')).toHaveLength(2);
    for (const n of h.filter((x) => x.tries[0]!.code === 'sim.NUMBER_ILLEGAL')) {
      expect(n).toMatchObject({ state: 'failed', attempts: 1, nextAt: null, tries: [{ code: 'sim.NUMBER_ILLEGAL', reason: 'number' }] });
    }
    // +990: unreachable, still pending with a next try (ALARM_NOTIFY_ATTEMPTS 4 by default).
    for (const n of h.filter((x) => x.tries[0]!.code === 'sim.UNREACHABLE')) {
      expect(n.state).toBe('pending');
      expect(n.nextAt).not.toBeNull();
      expect(n.tries[0]!.reason).toBeUndefined();
    }
    expect(h.filter((x) => x.tries[0]!.code === 'sim.UNREACHABLE')).toHaveLength(2);
    expect(provider.asked.filter((a) => a.phone === '+99912345678')).toHaveLength(2);
  });

  it('two senders on one database send each due notice exactly once (FOR UPDATE SKIP LOCKED)', async () => {
    const typeId = await f.setup('TWO');
    const o = await f.owner('two-owner', {});
    const d = await f.device('TWO-1', typeId, o.project);
    await f.heat(d, 70);
    const alarmId = (await f.alarmIds(d.id))[4]!;
    await t.database.db.execute(sql`
      insert into alarm_notices (alarm_id, device_id, channel, phone, recipient)
      select ${alarmId}, ${d.id}, 'sms', '1380000' || lpad(i::text, 4, '0'), 'device' from generate_series(1, 30) i`);
    const opts = { deviceMinLevel: 3, perDevice: 100, perNumber: 100, windowSeconds: 3600, attempts: 1, backoffSeconds: 0, pollMs: 60_000 };
    const [a, b] = [new SimulatedNotices(), new SimulatedNotices()];
    const one = new AlarmNotifier(t.database.db, t.app.log, a, opts);
    const two = new AlarmNotifier(t.database.db, t.app.log, b, opts);
    await Promise.all([one.runOnce(), two.runOnce(), one.runOnce()]);
    const outIds = [...a.sent, ...b.sent, ...provider.sent].filter((m) => m.params.sn === 'TWO-1').map((m) => m.outId);
    expect(outIds).toHaveLength(30);
    expect(new Set(outIds).size).toBe(30);
    const states = rowsOf<{ state: string; n: number }>(
      await t.database.db.execute(sql`select state, count(*)::int as n from alarm_notices where alarm_id = ${alarmId} group by state`),
    );
    expect(states).toEqual([{ state: 'sent', n: 30 }]);
  });
});

describe('alarm notice rate limits', () => {
  let t: TestApp;
  const provider = new SimulatedNotices();
  const f = fleet(() => t);

  beforeAll(async () => {
    t = await buildTestApp({ ALARM_NOTIFY_PER_DEVICE: '3', ALARM_NOTIFY_PER_NUMBER: '2' }, { notices: provider, noticePollMs: 60_000 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('holds per device and per number, counted in the database (another instance sees the same counts)', async () => {
    const typeId = await f.setup('RATE');
    const o = await f.owner('rate-owner', { contactNumber: '137 0000 1111', alarmSmsLevel: 4 });
    // Two device phones, SMS and call each: 4 notices, the device's limit is 3.
    const d = await f.device('RATE-1', typeId, o.project, '13600001111,13600002222');
    await f.heat(d, 70);
    const states = async (deviceId: number) =>
      rowsOf<{ recipient: string; phone: string; state: string }>(
        await t.database.db.execute(sql`select recipient, phone, state from alarm_notices where device_id = ${deviceId} order by id`),
      );
    // The owner's SMS (5th) is limited too: the device has no notices left.
    await expect.poll(async () => (await states(d.id)).length, { timeout: 10_000 }).toBe(5);
    expect((await states(d.id)).map((s) => s.state)).toEqual(['pending', 'pending', 'pending', 'limited', 'limited'].map((s, i) => (i < 3 ? expect.stringMatching(/pending|sent/) : s)));
    // The owner's number: 2 per window. Two other devices' alarms send one SMS each; a third is limited.
    const second = await f.device('RATE-2', typeId, o.project);
    await f.heat(second, 70);
    await expect.poll(async () => (await states(second.id)).map((s) => s.state), { timeout: 10_000 }).toEqual([expect.stringMatching(/pending|sent/)]);
    const third = await f.device('RATE-3', typeId, o.project);
    await f.heat(third, 70);
    await expect.poll(async () => (await states(third.id)).map((s) => s.state), { timeout: 10_000 }).toEqual([expect.stringMatching(/pending|sent/)]);
    // A separate notifier on the same database (a restart, a second instance) counts the same rows.
    const again = new AlarmNotifier(t.database.db, t.app.log, new SimulatedNotices(), {
      deviceMinLevel: 3, perDevice: 3, perNumber: 2, windowSeconds: 3600, attempts: 1, backoffSeconds: 0, pollMs: 60_000,
    });
    await again.queue([{ id: (await f.alarmIds(third.id))[4]!, sn: 'RATE-3' }]);
    expect((await states(third.id)).map((s) => s.state)).toEqual([expect.stringMatching(/pending|sent/), 'limited']);
    const history = await f.notices((await f.alarmIds(d.id))[4]!);
    expect(history.filter((h: { state: string }) => h.state === 'limited')).toHaveLength(2);
  });
});

/** A local Alibaba Cloud SMS endpoint answering each number with its list of codes in turn (then OK). */
class ScriptedAliyun {
  asked: string[] = [];
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const phone = new URLSearchParams(body).get('PhoneNumbers');
      const n = this.asked.filter((p) => p === phone).length;
      if (phone) this.asked.push(phone);
      const code = (phone && this.script[phone]?.[n]) || 'OK';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ Code: code, Message: code === 'OK' ? 'OK' : `refused: ${code}`, BizId: 'b', RequestId: 'r' }));
    });
  });
  constructor(readonly script: Record<string, string[]>) {}
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

describe('alarm notices refused for good by Alibaba Cloud (local fake)', () => {
  let t: TestApp;
  // Each owner's number: an invalid number, a bad template, wrong keys (for good); the number's
  // frequency control and a platform error (tried again, then sent).
  const fake = new ScriptedAliyun({
    '13500000001': ['isv.MOBILE_NUMBER_ILLEGAL'],
    '13500000002': ['isv.TEMPLATE_MISSING_PARAMETERS'],
    '13500000003': ['InvalidAccessKeyId.NotFound'],
    '13500000004': ['isv.BUSINESS_LIMIT_CONTROL', 'Throttling.User'],
    '13500000005': ['isp.SYSTEM_ERROR'],
  });
  const f = fleet(() => t);

  beforeAll(async () => {
    const url = await fake.start();
    const notices = new AliyunNotices({ accessKeyId: 'id', accessKeySecret: 'secret', smsUrl: url, voiceUrl: url, signName: 'S', smsTemplate: 'SMS_1', ttsTemplate: 'TTS_1' });
    t = await buildTestApp({ ALARM_NOTIFY_ATTEMPTS: '4', ALARM_NOTIFY_BACKOFF: '0' }, { notices, noticePollMs: 50 });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => fake.server.close(() => r()));
  });

  it('a permanent refusal is tried once and failed with its reason; a transient one is retried until sent', async () => {
    const typeId = await f.setup('PERM');
    const o = await f.owner('perm-owner', {});
    // The numbers as alarm phones (two per device): an SMS and a call each; the script is for the
    // SMS (SendSms), the calls are answered OK.
    const numbers = Object.keys(fake.script);
    const devices: { id: number; sn: string; secret: string }[] = [];
    for (let i = 0; i < numbers.length; i += 2) devices.push(await f.device(`PERM-${i}`, typeId, o.project, numbers.slice(i, i + 2).join(',')));
    for (const d of devices) await f.heat(d, 70);
    type Notice = { channel: string; phone: string; state: string; attempts: number; tries: { ok: boolean; code: string; reason?: string }[] };
    const sms = async () => {
      const all: Notice[] = [];
      for (const d of devices) {
        const id = (await f.alarmIds(d.id))[4];
        if (id !== undefined) all.push(...((await f.notices(id)) as Notice[]).filter((n) => n.channel === 'sms'));
      }
      return all;
    };
    await expect.poll(async () => (await sms()).map((n) => n.state).sort(), { timeout: 15_000 }).toEqual(['failed', 'failed', 'failed', 'sent', 'sent']);
    const asked = (suffix: string) => fake.asked.filter((p) => p.endsWith(suffix)).length;
    const list = await sms();
    const one = (suffix: string) => list.find((n) => n.phone.endsWith(suffix))!;
    expect(one('0001')).toMatchObject({ state: 'failed', attempts: 1, tries: [{ ok: false, code: 'isv.MOBILE_NUMBER_ILLEGAL', reason: 'number' }] });
    expect(one('0002')).toMatchObject({ state: 'failed', attempts: 1, tries: [{ code: 'isv.TEMPLATE_MISSING_PARAMETERS', reason: 'content' }] });
    expect(one('0003')).toMatchObject({ state: 'failed', attempts: 1, tries: [{ code: 'InvalidAccessKeyId.NotFound', reason: 'account' }] });
    expect(one('0004').tries.map((x) => `${x.ok}:${x.code}:${x.reason ?? '-'}`)).toEqual([
      'false:isv.BUSINESS_LIMIT_CONTROL:-', 'false:Throttling.User:-', 'true:OK:-',
    ]);
    expect(one('0005')).toMatchObject({ state: 'sent', attempts: 2 });
    // The platform was asked once per permanent refusal, again for the transient ones.
    expect(['0001', '0002', '0003', '0004', '0005'].map(asked)).toEqual([1, 1, 1, 3, 2]);
  });
});

/** A local Alibaba Cloud endpoint that refuses the first `failures` requests of each action. */
class FlakyAliyun {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const { Signature, ...params } = Object.fromEntries(new URLSearchParams(body));
      const action = params.Action!;
      this.seen.push({ action, signed: Signature === rpcSignature('secret', 'POST', params) });
      const n = (this.counts.get(action) ?? 0) + 1;
      this.counts.set(action, n);
      res.setHeader('content-type', 'application/json');
      if (n <= (this.failures[action] ?? 0)) return res.end(JSON.stringify({ Code: 'isp.SYSTEM_ERROR', Message: 'system busy', RequestId: `r${n}` }));
      res.end(JSON.stringify({ Code: 'OK', Message: 'OK', BizId: `biz-${n}`, CallId: `call-${n}`, RequestId: `r${n}` }));
    });
  });
  seen: { action: string; signed: boolean }[] = [];
  counts = new Map<string, number>();
  constructor(readonly failures: Record<string, number>) {}
  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

describe('alarm notices through Alibaba Cloud (local fake)', () => {
  let t: TestApp;
  const fake = new FlakyAliyun({ SendSms: 2, SingleCallByTts: 99 });
  const f = fleet(() => t);

  beforeAll(async () => {
    const url = await fake.start();
    const notices = new AliyunNotices({ accessKeyId: 'id', accessKeySecret: 'secret', smsUrl: url, voiceUrl: url, signName: 'S', smsTemplate: 'SMS_1', ttsTemplate: 'TTS_1' });
    t = await buildTestApp({ ALARM_NOTIFY_ATTEMPTS: '3', ALARM_NOTIFY_BACKOFF: '0' }, { notices, noticePollMs: 50 });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => fake.server.close(() => r()));
  });

  it('retries a refused SMS until it is sent, gives a call up after the last attempt, and records every try', async () => {
    const typeId = await f.setup('ALI');
    const o = await f.owner('ali-owner', { contactNumber: '+86 135 0000 1111', alarmSmsLevel: 4, alarmCallLevel: 4 });
    const d = await f.device('ALI-1', typeId, o.project);
    await f.heat(d, 70);
    const alarmId = async () => (await f.alarmIds(d.id))[4];
    await expect.poll(async () => (await alarmId()) !== undefined, { timeout: 10_000 }).toBe(true);
    const settled = async () => ((await f.notices((await alarmId())!)) as { state: string }[]).map((n) => n.state);
    await expect.poll(settled, { timeout: 15_000 }).toEqual(['sent', 'failed']);
    const [sms, call] = (await f.notices((await alarmId())!)) as { channel: string; attempts: number; phone: string; provider: string; tries: { ok: boolean; code: string; message: string }[] }[];
    expect(sms).toMatchObject({ channel: 'sms', attempts: 3, provider: 'aliyun', phone: '+86*******1111' });
    expect(sms!.tries.map((x) => `${x.ok}:${x.code}`)).toEqual(['false:isp.SYSTEM_ERROR', 'false:isp.SYSTEM_ERROR', 'true:OK']);
    expect(call).toMatchObject({ channel: 'call', attempts: 3 });
    expect(call!.tries.map((x) => x.code)).toEqual(['isp.SYSTEM_ERROR', 'isp.SYSTEM_ERROR', 'isp.SYSTEM_ERROR']);
    expect(fake.seen.length).toBe(6);
    expect(fake.seen.every((s) => s.signed)).toBe(true);
  });
});
