import { and, asc, count, eq, gte, ilike, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { ALARM_SORTS, AlarmState, EndpointParsedQuery, ListCursor, alarmApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import {
  alarmCounts,
  alarms,
  deviceTypeParams,
  devices,
  projects,
  projectUsers,
  userEmails,
} from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';
import { boundTime } from '../../lib/query/filters.js';
import { userActive, visibleOwned } from '../../lib/query/visibility.js';
import { fewMatches, keysetList, keysetValue, type Keyset } from '../../lib/query/keyset.js';
import { deviceTextLike } from '../../lib/query/filters.js';

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

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

/**
 * The list's conditions, all on the alarm row (the device's scope, project and type are copied
 * onto it: migrations 0030, 0072), so a filtered list, count or group joins no device.
 */
function filterOf(f: AlarmQuery): SQL | undefined {
  const pattern = f.device ? `%${escapeLike(f.device)}%` : undefined;
  return and(
    f.alarmId ? eq(alarms.id, f.alarmId) : undefined,
    f.deviceId ? eq(alarms.deviceId, f.deviceId) : undefined,
    f.level ? eq(alarms.level, f.level) : undefined,
    f.state ? eq(alarms.state, f.state) : undefined,
    f.activity === 'active' ? isNull(alarms.endedAt) : f.activity === 'ended' ? isNotNull(alarms.endedAt) : undefined,
    f.from ? gte(alarms.startedAt, boundTime(f.from)) : undefined,
    f.to ? lt(alarms.startedAt, boundTime(f.to)) : undefined,
    visibleOwned(alarms.ownerPath, alarms.projectId, f.scopePath),
    f.projectId ? eq(alarms.projectId, f.projectId) : undefined,
    f.typeId ? eq(alarms.typeId, f.typeId) : undefined,
    // The devices a text names, found in the search index: a condition on the alarm row, so
    // their alarms are read from the device index rather than by testing every alarm's device.
    pattern ? sql`${alarms.deviceId} in (select ${devices.id} from ${devices} where ${deviceTextMatch(pattern)})` : undefined,
  );
}

/** Devices whose SN or name contains the text (`pattern`, a LIKE pattern). */
function deviceTextMatch(pattern: string): SQL {
  // The search index finds the candidates (it also holds IMEI and SIM); SN or name decides.
  return and(deviceTextLike(pattern.toLowerCase()), or(ilike(devices.sn, pattern), ilike(devices.name, pattern)))!;
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
 * until they happen, and a null sorts as the latest: first descending, last ascending.
 */
function alarmKeyset(f: { sort: AlarmSort; order: 'asc' | 'desc' }): Keyset {
  const base = { sort: f.sort, order: f.order, id: alarms.id };
  switch (f.sort) {
    case 'startedAt':
      return { ...base, column: alarms.startedAt, kind: 'timestamp' };
    case 'endedAt':
    case 'processedAt':
      return { ...base, column: alarms[f.sort], kind: 'timestamp', nulls: 'high' };
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
  const where = filterOf(f);
  const matches = (v: SQL) => sql`select ${alarms.id} as id${v} from ${alarms} where ${where ?? sql`true`}`;
  const list = await keysetList(db, keyset, f, {
    where,
    rows: (cond) => base(db, keysetValue(keyset)).where(cond),
    // The ids need the device only for the device sort.
    ids: (cond) => {
      const q = db.select({ id: alarms.id }).from(alarms);
      return (f.sort === 'device' ? q.innerJoin(devices, eq(devices.id, alarms.deviceId)) : q).where(cond);
    },
    // A scoped page's ids first: its scope is checked in the order's index alone (alarms_started_idx
    // holds it), and only the page's rows are read and joined. So too the alarms of the devices
    // a text names, read from the device index and sorted.
    idsFirst: f.scopePath !== undefined || f.device !== undefined,
    // Every alarm has its device (the foreign key cascades): the count joins none.
    matches: db.select({ one: sql`1` }).from(alarms).where(where),
    // Any condition (a scope, a device text, a level and a time) may leave a few alarms scattered
    // along the order's index: read them first, up to the cap (lib/query/keyset.ts fewMatches).
    few:
      where === undefined
        ? undefined
        : () =>
            f.sort === 'device'
              ? // The device's SN by key once the alarms are known to be few: joined for 10,001
                // alarms, a scoped count hashed the million devices.
                fewMatches(db, keyset, f, matches(sql``), sql`(select d.sn from alarms a join devices d on d.id = a.device_id where a.id = m.id)`)
              : fewMatches(db, keyset, f, matches(sql`, ${keyset.column} as v`)),
  });
  return { total: list.total, exact: list.exact, next: list.next, items: list.rows.map(({ keyset: _k, ...row }) => row) };
}

export async function alarmGroups(db: Executor, f: AlarmQuery) {
  const selection = { level: alarms.level, state: alarms.state, active: sql<boolean>`${alarms.endedAt} is null`, n: count() };
  return db
    .select(selection)
    .from(alarms)
    .where(filterOf(f))
    .groupBy(alarms.level, alarms.state, sql`${alarms.endedAt} is null`);
}

/**
 * The fleet's alarms per level for /metrics, one statement per scrape: active ones (not ended)
 * found through an index on `ended_at` (alarms_ended_idx), so the cost follows the alarms open
 * now, never the history; untreated ones summed from `alarm_counts`, a few rows per owner path
 * and level.
 */
export async function alarmGauges(db: Executor) {
  const res = await db.execute(sql`
    select 'active' as kind, ${alarms.level} as level, count(*)::int as n
      from ${alarms} where ${alarms.endedAt} is null group by ${alarms.level}
    union all
    select 'untreated', ${alarmCounts.level}, sum(${alarmCounts.n})::int
      from ${alarmCounts} where ${alarmCounts.state} = 'untreated' group by ${alarmCounts.level}`);
  return rows<{ kind: 'active' | 'untreated'; level: number; n: number }>(res);
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
/**
 * Who is mailed an alarm of `level` on the device: its project's owner and the users the project is
 * shared with who asked for shared projects' alarms, each only when `level` reaches the user's own
 * mail level (`defaultLevel` for users who never chose one).
 */
export async function mailRecipients(db: Executor, deviceId: number, level: number, defaultLevel: number) {
  const res = await db.execute(sql`
    select u.id, u.language, array_agg(e.email order by e.id) as emails
    from devices d join projects p on p.id = d.project_id
    join users u on u.id = p.owner_id or (u.alarm_mail and exists (
      select 1 from ${projectUsers} pu where pu.project_id = p.id and pu.user_id = u.id))
    join ${userEmails} e on e.user_id = u.id
    where d.id = ${deviceId} and ${userActive('u')} and coalesce(u.alarm_mail_level, ${defaultLevel}) <= ${level}
    group by u.id, u.language`);
  return rows<{ id: number; language: string; emails: string[] }>(res);
}
