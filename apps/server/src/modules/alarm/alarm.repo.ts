import { and, asc, count, eq, gte, ilike, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ALARM_SORTS, AlarmState, EndpointParsedQuery, ListCursor, alarmApi } from '@iot/contract';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import {
  alarms,
  deviceTypeAlarms,
  deviceTypeParams,
  devices,
  projects,
  projectUsers,
  userEmails,
} from '../../db/schema/index.js';
import { boundTime, escapeLike } from '../../lib/sql.js';
import { userActive, visibleOwned } from '../../lib/visibility.js';
import { pageAndTotal } from '../../lib/paging.js';
import { keysetPage, keysetRows, keysetValue, type Keyset } from '../../lib/keyset.js';
import { deviceTextLike } from '../../lib/device-search.js';

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

// ---- engine -------------------------------------------------------------------------------------

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
  source: 'rule' | 'device';
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
 */
export async function startAlarms(db: Executor, starts: AlarmStart[]) {
  if (starts.length === 0) return [];
  const res = await db.execute(sql`
    insert into alarms (device_id, rule_key, rule_id, source, semaphore_id, level, message, message_en, message_es,
      message_ja, value, started_at)
    select x.device_id, x.rule_key, x.rule_id, x.source, x.semaphore_id, x.level, x.message, x.message_en, x.message_es,
      x.message_ja, x.value, x.started_at
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

// ---- reads --------------------------------------------------------------------------------------

const columns = {
  id: alarms.id,
  deviceId: alarms.deviceId,
  deviceName: devices.name,
  sn: devices.sn,
  ownerPath: devices.ownerPath,
  projectId: devices.projectId,
  projectName: projects.name,
  typeId: devices.typeId,
  source: alarms.source,
  semaphoreId: alarms.semaphoreId,
  name: deviceTypeParams.name,
  nameEn: deviceTypeParams.nameEn,
  nameEs: deviceTypeParams.nameEs,
  nameJa: deviceTypeParams.nameJa,
  message: alarms.message,
  messageEn: alarms.messageEn,
  messageEs: alarms.messageEs,
  messageJa: alarms.messageJa,
  value: alarms.value,
  level: alarms.level,
  startedAt: alarms.startedAt,
  reportedAt: alarms.reportedAt,
  endedAt: alarms.endedAt,
  state: alarms.state,
  processedAt: alarms.processedAt,
  processedBy: alarms.processedByName,
  note: alarms.note,
};
export type AlarmRow = Omit<Awaited<ReturnType<typeof alarmsByIds>>[number], 'keyset'>;

/** The filters of the alarm endpoints' parsed query, plus the caller's scope. */
export type AlarmQuery = EndpointParsedQuery<typeof alarmApi.groups> & { scopePath: string | undefined };

/** Conditions on the alarm row alone. */
function alarmWhere(f: AlarmQuery): (SQL | undefined)[] {
  const pattern = f.device ? `%${escapeLike(f.device)}%` : undefined;
  return [
    f.alarmId ? eq(alarms.id, f.alarmId) : undefined,
    f.deviceId ? eq(alarms.deviceId, f.deviceId) : undefined,
    f.level ? eq(alarms.level, f.level) : undefined,
    f.state ? eq(alarms.state, f.state) : undefined,
    f.activity === 'active' ? isNull(alarms.endedAt) : f.activity === 'ended' ? isNotNull(alarms.endedAt) : undefined,
    f.from ? gte(alarms.startedAt, boundTime(f.from)) : undefined,
    f.to ? lt(alarms.startedAt, boundTime(f.to)) : undefined,
    // The scope and the project are the device's, copied onto the alarm (migration 0030).
    visibleOwned(alarms.ownerPath, alarms.projectId, f.scopePath),
    f.projectId ? eq(alarms.projectId, f.projectId) : undefined,
    // The devices a text names, found in the search index: a condition on the alarm row, so
    // their alarms are read from the device index rather than by testing every alarm's device.
    pattern ? sql`${alarms.deviceId} in (select ${devices.id} from ${devices} where ${deviceTextMatch(pattern)})` : undefined,
  ];
}

/** Devices whose SN or name contains the text (`pattern`, a LIKE pattern). */
function deviceTextMatch(pattern: string): SQL {
  // The search index finds the candidates (it also holds IMEI and SIM); SN or name decides.
  return and(deviceTextLike(pattern.toLowerCase()), or(ilike(devices.sn, pattern), ilike(devices.name, pattern)))!;
}

/**
 * The list's conditions (`where`) and whether any needs the device (without, they read the alarm
 * row alone and no join is made).
 */
function filterOf(f: AlarmQuery) {
  const onDevice = f.typeId ? eq(devices.typeId, f.typeId) : undefined;
  return { where: and(onDevice, ...alarmWhere(f)), needsDevice: onDevice !== undefined };
}

/**
 * The list's matches, for its capped count; without a condition on the device (scope, project,
 * state, level, time: all on the alarm row) the alarms alone, skipping a join per counted row
 * (every alarm has its device: the foreign key cascades).
 */
function alarmMatches(db: Executor, filter: ReturnType<typeof filterOf>) {
  return fromAlarms(db, { one: sql`1` }, filter.needsDevice).where(filter.where);
}

/** Alarms, joined to their devices only when a condition or the order needs them. */
function fromAlarms<S extends SelectedFields>(db: Executor, fields: S, withDevice: boolean) {
  const q = db.select(fields).from(alarms);
  return withDevice ? q.innerJoin(devices, eq(devices.id, alarms.deviceId)) : q;
}

/** The alarm rows with their device, project and parameter; `keyset`: the list's cursor value. */
const base = (db: Executor, keyset: SQL<string | null> = sql<string | null>`null`) =>
  db
    .select({ ...columns, keyset })
    .from(alarms)
    .innerJoin(devices, eq(devices.id, alarms.deviceId))
    .leftJoin(projects, eq(projects.id, devices.projectId))
    .leftJoin(
      deviceTypeParams,
      and(eq(deviceTypeParams.typeId, devices.typeId), eq(deviceTypeParams.semaphoreId, alarms.semaphoreId)),
    );

type AlarmSort = (typeof ALARM_SORTS)[number];

/**
 * The list's order as a keyset (its ORDER BY and `after` / `next`); ended and processed are null
 * until they happen and come last either way.
 */
function alarmKeyset(f: { sort: AlarmSort; order: 'asc' | 'desc' }): Keyset {
  const base = { sort: f.sort, order: f.order, id: alarms.id };
  switch (f.sort) {
    case 'startedAt':
      return { ...base, column: alarms.startedAt, kind: 'timestamp' };
    case 'endedAt':
    case 'processedAt':
      return { ...base, column: alarms[f.sort], kind: 'timestamp', nulls: 'last' };
    case 'level':
      return { ...base, column: alarms.level, kind: 'integer' };
    case 'device':
      return { ...base, column: devices.sn, kind: 'text' };
  }
}

export async function listAlarms(
  db: Executor,
  f: AlarmQuery & { sort: AlarmSort; order: 'asc' | 'desc'; page: number; limit: number; after?: ListCursor },
) {
  const keyset = alarmKeyset(f);
  const filter = filterOf(f);
  const [rows, total] = await pageAndTotal(
    db,
    keysetRows(
      keyset,
      f,
      filter.where,
      (cond) => base(db, keysetValue(keyset)).where(cond),
      // The ids need the device only for its filters and the device sort.
      (cond) => fromAlarms(db, { id: alarms.id }, filter.needsDevice || f.sort === 'device').where(cond),
      // A scoped page's ids first: its scope is checked in the order's index alone (alarms_started_idx
      // holds it), and only the page's rows are read and joined. So too the alarms of the devices
      // a text names, read from the device index and sorted.
      f.scopePath !== undefined || f.device !== undefined,
    ),
    alarmMatches(db, filter),
  );
  const page = keysetPage(keyset, rows, f.limit);
  return { ...total, next: page.next, items: page.rows.map(({ keyset: _k, ...row }) => row) };
}

export async function alarmGroups(db: Executor, f: AlarmQuery) {
  const filter = filterOf(f);
  const selection = { level: alarms.level, state: alarms.state, active: sql<boolean>`${alarms.endedAt} is null`, n: count() };
  return fromAlarms(db, selection, filter.needsDevice)
    .where(filter.where)
    .groupBy(alarms.level, alarms.state, sql`${alarms.endedAt} is null`);
}

export async function alarmsByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return base(db).where(inArray(alarms.id, ids)).orderBy(asc(alarms.id));
}

/** Which of `ids` exist in the scope (others are reported as missing). */
export async function visibleAlarmIds(db: Executor, ids: number[], scopePath: string | undefined) {
  const res = await db
    .select({ id: alarms.id })
    .from(alarms)
    .where(and(inArray(alarms.id, ids), visibleOwned(alarms.ownerPath, alarms.projectId, scopePath)));
  return res.map((r) => r.id);
}

export async function processAlarms(
  db: Executor,
  ids: number[],
  p: { state: Exclude<AlarmState, 'untreated'>; note: string; userId: number; username: string },
) {
  const res = await db
    .update(alarms)
    .set({ state: p.state, note: p.note, processedAt: new Date(), processedBy: p.userId, processedByName: p.username })
    .where(inArray(alarms.id, ids))
    .returning({ id: alarms.id });
  return res.map((r) => r.id);
}

// ---- e-mail -------------------------------------------------------------------------------------

/**
 * Who is told about an alarm of a device by e-mail: the owner of the device's project, and the
 * users the project is shared with who opted in — each with their addresses and language.
 */
export async function mailRecipients(db: Executor, deviceId: number) {
  const res = await db.execute(sql`
    select u.id, u.language, array_agg(e.email order by e.id) as emails
    from devices d join projects p on p.id = d.project_id
    join users u on u.id = p.owner_id or (u.alarm_mail and exists (
      select 1 from ${projectUsers} pu where pu.project_id = p.id and pu.user_id = u.id))
    join ${userEmails} e on e.user_id = u.id
    where d.id = ${deviceId} and ${userActive('u')}
    group by u.id, u.language`);
  return rows<{ id: number; language: string; emails: string[] }>(res);
}
