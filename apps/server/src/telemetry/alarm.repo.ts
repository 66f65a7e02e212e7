import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AlarmSource } from '@iot/contract';
import type { Executor } from '../db/client.js';
import { deviceTypeAlarms, deviceTypeParams, devices } from '../db/schema/index.js';

// The alarm stage's statements (alarm.engine.ts), inside the batch's transaction; modules/alarm
// reads and processes the alarms.

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** The enabled rules of some device types, with their parameters' names. */
export async function rulesOf(db: Executor, typeIds: number[]) {
  if (typeIds.length === 0) return [];
  return db
    .select({
      id: deviceTypeAlarms.id,
      typeId: deviceTypeAlarms.typeId,
      semaphoreId: deviceTypeAlarms.semaphoreId,
      comparison: deviceTypeAlarms.comparison,
      threshold: deviceTypeAlarms.threshold,
      threshold2: deviceTypeAlarms.threshold2,
      level: deviceTypeAlarms.level,
      message: deviceTypeAlarms.message,
      messageEn: deviceTypeAlarms.messageEn,
      messageEs: deviceTypeAlarms.messageEs,
      messageJa: deviceTypeAlarms.messageJa,
      holdSeconds: deviceTypeAlarms.holdSeconds,
      dataType: deviceTypeParams.dataType,
    })
    .from(deviceTypeAlarms)
    .leftJoin(
      deviceTypeParams,
      and(eq(deviceTypeParams.typeId, deviceTypeAlarms.typeId), eq(deviceTypeParams.semaphoreId, deviceTypeAlarms.semaphoreId)),
    )
    .where(and(inArray(deviceTypeAlarms.typeId, typeIds), eq(deviceTypeAlarms.enabled, true)))
    .orderBy(asc(deviceTypeAlarms.id));
}
export type RuleRow = Awaited<ReturnType<typeof rulesOf>>[number];

export interface DeviceAlarmState {
  deviceId: number;
  typeId: number;
  /** Newest alarm of each key, active or ended (the engine's memory after a restart). */
  latest: { id: number; ruleKey: string; ruleId: number | null; source: string; semaphoreId: string; level: number; startedAt: string; endedAt: string | null }[];
}

/** What the engine needs of devices it has not seen lately: type and newest alarm per key. */
export async function deviceStates(db: Executor, ids: number[]): Promise<DeviceAlarmState[]> {
  if (ids.length === 0) return [];
  const list = sql.join(ids.map((id) => sql`${id}`), sql`, `);
  const [devs, latest] = await Promise.all([
    db.select({ id: devices.id, typeId: devices.typeId }).from(devices).where(inArray(devices.id, ids)),
    db.execute(sql`
      select distinct on (device_id, rule_key) id::int as id, device_id, rule_key, rule_id, source, semaphore_id, level,
        started_at, ended_at
      from alarms where device_id in (${list})
      order by device_id, rule_key, started_at desc, id desc`),
  ]);
  const byDevice = new Map<number, DeviceAlarmState>(devs.map((d) => [d.id, { deviceId: d.id, typeId: d.typeId, latest: [] }]));
  for (const r of rows<{
    id: number; device_id: number; rule_key: string; rule_id: number | null; source: string; semaphore_id: string;
    level: number; started_at: string | Date; ended_at: string | Date | null;
  }>(latest)) {
    byDevice.get(r.device_id)?.latest.push({
      id: Number(r.id),
      ruleKey: r.rule_key,
      ruleId: r.rule_id,
      source: r.source,
      semaphoreId: r.semaphore_id,
      level: r.level,
      startedAt: new Date(r.started_at).toISOString(),
      endedAt: r.ended_at === null ? null : new Date(r.ended_at).toISOString(),
    });
  }
  return [...byDevice.values()];
}

export interface AlarmStart {
  deviceId: number;
  ruleKey: string;
  ruleId: number | null;
  source: AlarmSource;
  semaphoreId: string;
  level: number;
  message: string;
  messageEn: string;
  messageEs: string;
  messageJa: string;
  value: string;
  startedAt: string;
}
export interface AlarmEnd {
  deviceId: number;
  ruleKey: string;
  endedAt: string;
}

/**
 * Opens alarms. The partial unique index makes an already active (device, key) a no-op: only the
 * alarms really opened come back. Rows of a device deleted meanwhile are left out.
 * `callout`: a phone call-out is due (decision 0024) when the device has an alarm phone number and
 * the level is at least the device's warning level (the highest level of its open alarms, 0 with
 * none), read here from the open alarms themselves, this batch's ends included (the device's
 * `warning_level` column is refreshed only at the batch's end): a new alarm calls unless a more
 * severe one is already open.
 */
export async function startAlarms(db: Executor, starts: AlarmStart[]) {
  if (starts.length === 0) return [];
  const res = await db.execute(sql`
    insert into alarms (device_id, rule_key, rule_id, source, semaphore_id, level, message, message_en, message_es,
      message_ja, value, started_at, callout)
    select x.device_id, x.rule_key, x.rule_id, x.source, x.semaphore_id, x.level, x.message, x.message_en, x.message_es,
      x.message_ja, x.value, x.started_at,
      d.alarm_phone ~ '[0-9]' and x.level >= coalesce((select max(o.level) from alarms o
        where o.device_id = d.id and o.ended_at is null), 0)
    from json_to_recordset(${JSON.stringify(
      starts.map((s) => ({
        device_id: s.deviceId, rule_key: s.ruleKey, rule_id: s.ruleId, source: s.source, semaphore_id: s.semaphoreId,
        level: s.level, message: s.message, message_en: s.messageEn, message_es: s.messageEs, message_ja: s.messageJa,
        value: s.value.slice(0, 128), started_at: s.startedAt,
      })),
    )}::json) as x(device_id int, rule_key text, rule_id int, source text, semaphore_id text, level smallint,
      message text, message_en text, message_es text, message_ja text, value text, started_at timestamptz)
    join devices d on d.id = x.device_id
    on conflict (device_id, rule_key) where ended_at is null do nothing
    returning id::int as id, device_id, rule_key, level`);
  return rows<{ id: number; device_id: number; rule_key: string; level: number }>(res).map((r) => ({
    id: Number(r.id), deviceId: r.device_id, ruleKey: r.rule_key, level: r.level,
  }));
}

/** Ends the active alarms of these keys; only those really ended come back. */
export async function endAlarms(db: Executor, ends: AlarmEnd[]) {
  if (ends.length === 0) return [];
  const res = await db.execute(sql`
    update alarms a set ended_at = greatest(x.ended_at, a.started_at)
    from json_to_recordset(${JSON.stringify(
      ends.map((e) => ({ device_id: e.deviceId, rule_key: e.ruleKey, ended_at: e.endedAt })),
    )}::json) as x(device_id int, rule_key text, ended_at timestamptz)
    where a.device_id = x.device_id and a.rule_key = x.rule_key and a.ended_at is null
    returning a.id::int as id, a.device_id, a.rule_key`);
  return rows<{ id: number; device_id: number; rule_key: string }>(res).map((r) => ({
    id: Number(r.id), deviceId: r.device_id, ruleKey: r.rule_key,
  }));
}

/** A device's warning level is the highest level of its active alarms (0: none). */
export async function refreshWarningLevels(db: Executor, deviceIds: number[]) {
  if (deviceIds.length === 0) return;
  const list = sql.join([...new Set(deviceIds)].sort((a, b) => a - b).map((id) => sql`${id}`), sql`, `);
  await db.execute(sql`
    update devices d set warning_level = w.level
    from (select d2.id, coalesce((select max(a.level) from alarms a where a.device_id = d2.id and a.ended_at is null), 0) as level
          from devices d2 where d2.id in (${list})) w
    where d.id = w.id and d.warning_level <> w.level`);
}

/** A rule's hold in progress (alarm_holds, decision 0038): device times in ms. */
export interface AlarmHold {
  deviceId: number;
  ruleKey: string;
  semaphoreId: string;
  breachSince: number | null;
  recoverSince: number | null;
}

export async function alarmHolds(db: Executor, ids: number[]): Promise<AlarmHold[]> {
  if (ids.length === 0) return [];
  const res = await db.execute(sql`
    select device_id as "deviceId", rule_key as "ruleKey", semaphore_id as "semaphoreId",
      breach_since::float8 as "breachSince", recover_since::float8 as "recoverSince"
    from alarm_holds where device_id = any(${`{${ids.join(',')}}`}::int[])`);
  return rows<AlarmHold>(res);
}

/** Writes the holds that changed: a row while a hold runs, none once it ended. */
export async function saveHolds(db: Executor, holds: AlarmHold[]): Promise<void> {
  const running = holds.filter((h) => h.breachSince !== null || h.recoverSince !== null);
  const ended = holds.filter((h) => h.breachSince === null && h.recoverSince === null);
  if (ended.length > 0) {
    await db.execute(sql`
      delete from alarm_holds h using json_to_recordset(${JSON.stringify(ended)}::json) as x("deviceId" int, "ruleKey" text)
      where h.device_id = x."deviceId" and h.rule_key = x."ruleKey"`);
  }
  if (running.length > 0) {
    await db.execute(sql`
      insert into alarm_holds (device_id, rule_key, semaphore_id, breach_since, recover_since)
      select x."deviceId", x."ruleKey", x."semaphoreId", x."breachSince", x."recoverSince"
      from json_to_recordset(${JSON.stringify(running)}::json)
        as x("deviceId" int, "ruleKey" text, "semaphoreId" text, "breachSince" bigint, "recoverSince" bigint)
      join devices d on d.id = x."deviceId"
      on conflict (device_id, rule_key) do update set
        semaphore_id = excluded.semaphore_id, breach_since = excluded.breach_since, recover_since = excluded.recover_since`);
  }
}
