import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { Retention } from '../src/lib/retention.js';
import { pruneNotices } from '../src/modules/alarm/notice.repo.js';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

const DAY = 86_400_000;
const silent = { info() {}, error() {} } as never;

/** ALARM_NOTICE_RETENTION_DAYS: settled alarm SMS and call records go in batches; queued ones stay. */
describe('alarm notice retention', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const { ok } = apiAs(() => t, tok);
  const rows = async <R>(q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as unknown as { rows: R[] }).rows;
  let alarmId = 0;
  let deviceId = 0;
  /** `n` notices in `state` created `daysAgo` days before `now`. */
  const insertAt = (n: number, state: string, now: number, daysAgo: number) =>
    t.database.db.execute(sql`
      insert into alarm_notices (alarm_id, device_id, channel, phone, recipient, state, created_at)
      select ${alarmId}, ${deviceId}, 'sms', '13800000000', 'device', ${state}, ${new Date(now - daysAgo * DAY).toISOString()}::timestamptz
      from generate_series(1, ${n})`);
  const byState = async () =>
    Object.fromEntries((await rows<{ state: string; n: number }>(sql`select state, count(*)::int as n from alarm_notices group by state`)).map((r) => [r.state, r.n]));

  beforeAll(async () => {
    t = await buildTestApp({ ALARM_NOTICE_RETENTION_DAYS: '30' });
    tok.admin = await t.login();
    const typeId = (await ok('admin', 'POST', '/devicetype/addtype', { code: 'RET', name: '保留' })).id as number;
    deviceId = (await ok('admin', 'POST', '/device/add', { name: 'Retained', sn: 'RET-1', typeId })).id as number;
    // An alarm row to hang the notices on (the notices cascade with it).
    const [a] = await rows<{ id: number }>(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at)
      values (${deviceId}, 'T>60', 'rule', 'T', 4, now()) returning id::int as id`);
    alarmId = a!.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is read from ALARM_NOTICE_RETENTION_DAYS (default 180), a bad value named', () => {
    expect(t.config.alarmNoticeRetentionDays).toBe(30);
    expect(loadConfig({}).alarmNoticeRetentionDays).toBe(180);
    expect(() => loadConfig({ ALARM_NOTICE_RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ ALARM_NOTICE_RETENTION_DAYS: 'forever' })).toThrow(/ALARM_NOTICE_RETENTION_DAYS/);
  });

  it('deletes settled notices past the retention in batches, never a queued or sending one', async () => {
    await t.database.db.execute(sql`delete from alarm_notices`);
    const now = Date.now();
    await insertAt(9, 'sent', now, 400);
    await insertAt(4, 'failed', now, 200);
    await insertAt(3, 'limited', now, 31);
    // Queued long ago (a provider down for months, or a notice claimed by a sender): kept.
    await insertAt(5, 'pending', now, 300);
    await insertAt(6, 'sent', now, 29);
    await insertAt(2, 'failed', now, 1);
    const retention = new Retention(t.database.db, silent, { name: 'alarm notice', days: 30, batch: 4, prune: pruneNotices });
    // 16 old settled rows in batches of 4: four full batches, then an empty one.
    expect(await retention.run(now)).toBe(16);
    expect(await byState()).toEqual({ pending: 5, sent: 6, failed: 2 });
    const [oldest] = await rows<{ at: string }>(sql`select min(created_at)::text as at from alarm_notices where state <> 'pending'`);
    expect(new Date(oldest!.at).getTime()).toBeGreaterThanOrEqual(now - 30 * DAY);
    expect(await retention.run(now)).toBe(0);
    // The alarm's history answers with what is left.
    expect(await ok('admin', 'GET', `/device/alarmnotices?alarmId=${alarmId}`)).toHaveLength(13);
  });

  it('has an index of the settled notices by age, so a batch reads only what it deletes', async () => {
    const [idx] = await rows<{ def: string }>(sql`select indexdef as def from pg_indexes where indexname = 'alarm_notices_settled_idx'`);
    expect(idx!.def).toMatch(/\(created_at, id\) WHERE \(\(state\)::text <> 'pending'::text\)/);
  });
});
