import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { UpgradeTargetState } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { firmwareVersions } from '../../db/schema/index.js';
import { visibleVersions } from '../../lib/query/visibility.js';
import { escapeLike } from '../../lib/sql.js';

/**
 * SQL of upgrade campaigns (upgrade_campaigns, upgrade_targets, upgrade_logs). Every transition is
 * one statement guarded by the state it leaves, so two rounds (or a round and a device's answer)
 * never both move a device; each writes its log row in the same statement.
 */

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const intArray = (ids: readonly number[]) => sql`${`{${ids.join(',')}}`}::int[]`;
const textArray = (xs: readonly string[]) => sql`${`{${xs.map((x) => `"${x.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;

export const OPEN = sql.raw(`('queued', 'sent', 'downloading', 'installing', 'verifying')`);
export const ACTIVE = sql.raw(`('sent', 'downloading', 'installing', 'verifying')`);

/** Devices a caller may change (owned in its subtree, or in a project owned there); undefined scope: all. */
function managed(scope: string | undefined): SQL {
  if (scope === undefined) return sql`true`;
  const prefix = `${escapeLike(scope)}%`;
  return sql`(d.owner_path like ${prefix} or p.owner_path like ${prefix})`;
}

/** A version the caller may use (lib/query/visibility.ts `visibleVersions`). */
export async function usableVersion(db: Executor, id: number, scope: string | undefined) {
  const v = firmwareVersions;
  const [row] = await db
    .select({ id: v.id, name: v.name, software_version: v.softwareVersion, url: v.url, type_ids: v.typeIds, models: v.models })
    .from(v)
    .where(and(eq(v.id, id), visibleVersions(scope)));
  return row;
}
export type UsableVersion = NonNullable<Awaited<ReturnType<typeof usableVersion>>>;

export interface TargetFilter {
  scope: string | undefined;
  deviceIds?: number[];
  projectId?: number;
  typeId?: number;
  currentVersion?: string;
}

/** The candidates of a campaign, each classed: target, incompatible, busy (an upgrade open) or current. */
function classified(f: TargetFilter, v: UsableVersion): SQL {
  const conds: SQL[] = [managed(f.scope)];
  if (f.deviceIds) conds.push(sql`d.id = any(${intArray(f.deviceIds)})`);
  if (f.projectId !== undefined) conds.push(sql`d.project_id = ${f.projectId}`);
  if (f.typeId !== undefined) conds.push(sql`d.type_id = ${f.typeId}`);
  if (f.currentVersion !== undefined) conds.push(sql`d.reported_info->>'firmware' = ${f.currentVersion}`);
  const types = v.type_ids.length > 0 ? sql`not (d.type_id = any(${intArray(v.type_ids)}))` : sql`false`;
  const models = v.models.length > 0 ? sql`not (d.manufacturer_model = any(${textArray(v.models)}))` : sql`false`;
  return sql`
    select d.id, d.reported_info->>'firmware' as firmware,
      case when ${types} or ${models} then 'incompatible'
        when d.reported_info->>'firmware' = ${v.software_version} then 'current'
        when exists (select 1 from upgrade_targets o where o.device_id = d.id and o.state in ${OPEN}) then 'busy'
        else 'target' end as class
    from devices d left join projects p on p.id = d.project_id
    where ${sql.join(conds, sql` and `)}`;
}

/** The ids among `ids` the caller may change (the others are refused as not found). */
export async function managedIds(db: Executor, ids: number[], scope: string | undefined): Promise<number[]> {
  const res = await db.execute(sql`
    select d.id from devices d left join projects p on p.id = d.project_id
    where d.id = any(${intArray(ids)}) and ${managed(scope)}`);
  return rows<{ id: number }>(res).map((r) => r.id);
}

export async function plan(db: Executor, f: TargetFilter, v: UsableVersion) {
  const res = await db.execute(sql`select class, count(*)::int as n from (${classified(f, v)}) c group by class`);
  const counts = { target: 0, incompatible: 0, busy: 0, current: 0 };
  for (const r of rows<{ class: keyof typeof counts; n: number }>(res)) counts[r.class] = r.n;
  return counts;
}

/**
 * Inserts the campaign's devices (those classed `target`) as queued, with their log rows; a device
 * another campaign took meanwhile is skipped by the one-open-upgrade index. Returns how many.
 */
export async function insertTargets(db: Executor, campaignId: number, f: TargetFilter, v: UsableVersion): Promise<number> {
  const res = await db.execute(sql`
    with ins as (
      insert into upgrade_targets (campaign_id, device_id, from_version)
      select ${campaignId}, c.id, c.firmware from (${classified(f, v)}) c where c.class = 'target'
      on conflict do nothing
      returning device_id
    ), logged as (
      insert into upgrade_logs (campaign_id, device_id, state, attempt, message)
      select ${campaignId}, device_id, 'queued', 0, null from ins
    )
    select count(*)::int as n from ins`);
  return rows<{ n: number }>(res)[0]?.n ?? 0;
}

export async function insertCampaign(
  db: Executor,
  c: {
    versionId: number;
    versionName: string;
    softwareVersion: string;
    concurrency: number;
    stageTimeoutSec: number;
    retries: number;
    deadline: Date;
    url: string;
    ownerPath: string;
    createdBy: number;
    createdByName: string;
  },
): Promise<number> {
  const res = await db.execute(sql`
    insert into upgrade_campaigns (version_id, version_name, software_version, concurrency, stage_timeout_sec, retries,
      deadline, url, owner_path, created_by, created_by_name)
    values (${c.versionId}, ${c.versionName}, ${c.softwareVersion}, ${c.concurrency}, ${c.stageTimeoutSec}, ${c.retries},
      ${c.deadline.toISOString()}, ${c.url}, ${c.ownerPath}, ${c.createdBy}, ${c.createdByName})
    returning id`);
  return rows<{ id: number }>(res)[0]!.id;
}

const campaignSeen = (scope: string | undefined) =>
  scope === undefined ? sql`true` : sql`c.owner_path like ${`${escapeLike(scope)}%`}`;

export interface CampaignRow {
  id: number;
  version_id: number | null;
  version_name: string;
  software_version: string;
  state: 'running' | 'finished' | 'cancelled';
  concurrency: number;
  stage_timeout_sec: number;
  retries: number;
  deadline: string | Date;
  created_at: string | Date;
  ended_at: string | Date | null;
  created_by_name: string | null;
  counts: Partial<Record<UpgradeTargetState, number>> | null;
  progress_sum: number | string | null;
  total: number;
}

/** A campaign with its devices counted per state, its progress sum and total, in one pass over them. */
const CAMPAIGN_COLUMNS = sql`c.id, c.version_id, c.version_name, c.software_version, c.state, c.concurrency, c.stage_timeout_sec,
  c.retries, c.deadline, c.created_at, c.ended_at, c.created_by_name, agg.counts, agg.progress_sum, coalesce(agg.total, 0)::int as total`;
const CAMPAIGN_FROM = sql`upgrade_campaigns c left join lateral (
    select json_object_agg(s.state, s.n) as counts, sum(s.progress_sum) as progress_sum, sum(s.n)::int as total
    from (select t.state, count(*)::int as n,
            sum(case when t.state in ('succeeded', 'failed', 'timedOut', 'cancelled') then 100 else t.progress end) as progress_sum
          from upgrade_targets t where t.campaign_id = c.id group by t.state) s
  ) agg on true`;

export async function campaignById(db: Executor, id: number, scope: string | undefined): Promise<CampaignRow | undefined> {
  const res = await db.execute(sql`select ${CAMPAIGN_COLUMNS} from ${CAMPAIGN_FROM} where c.id = ${id} and ${campaignSeen(scope)}`);
  return rows<CampaignRow>(res)[0];
}

export async function listCampaigns(
  db: Executor,
  f: { scope: string | undefined; id?: number; state?: string; versionId?: number; q?: string; sort: 'createdAt' | 'id'; order: 'asc' | 'desc'; page: number; limit: number },
) {
  const conds: SQL[] = [campaignSeen(f.scope)];
  if (f.id !== undefined) conds.push(sql`c.id = ${f.id}`);
  if (f.state) conds.push(sql`c.state = ${f.state}`);
  if (f.versionId !== undefined) conds.push(sql`c.version_id = ${f.versionId}`);
  if (f.q) {
    const q = `%${escapeLike(f.q)}%`;
    conds.push(sql`(c.version_name ilike ${q} or c.software_version ilike ${q})`);
  }
  const where = sql.join(conds, sql` and `);
  const dir = sql.raw(f.order === 'asc' ? 'asc' : 'desc');
  const by = f.sort === 'id' ? sql`c.id ${dir}` : sql`c.created_at ${dir}, c.id ${dir}`;
  const [page, total] = await Promise.all([
    db.execute(sql`select ${CAMPAIGN_COLUMNS} from ${CAMPAIGN_FROM} where ${where} order by ${by}
      limit ${f.limit} offset ${(f.page - 1) * f.limit}`),
    db.execute(sql`select count(*)::int as n from upgrade_campaigns c where ${where}`),
  ]);
  return { total: rows<{ n: number }>(total)[0]!.n, items: rows<CampaignRow>(page) };
}

export interface TargetRow {
  campaign_id: number;
  device_id: number;
  device_name: string;
  sn: string;
  online: boolean;
  state: UpgradeTargetState;
  progress: number;
  attempt: number;
  reason: string | null;
  from_version: string | null;
  to_version: string | null;
  stage_at: string | Date;
  updated_at: string | Date;
  ended_at: string | Date | null;
}

export async function listTargets(
  db: Executor,
  f: {
    scope: string | undefined;
    campaignId?: number;
    deviceId?: number;
    state?: string;
    q?: string;
    sort: 'id' | 'state' | 'progress' | 'updatedAt';
    order: 'asc' | 'desc';
    page: number;
    limit: number;
  },
) {
  const conds: SQL[] = [campaignSeen(f.scope)];
  if (f.campaignId !== undefined) conds.push(sql`t.campaign_id = ${f.campaignId}`);
  if (f.deviceId !== undefined) conds.push(sql`t.device_id = ${f.deviceId}`);
  if (f.state) conds.push(sql`t.state = ${f.state}`);
  if (f.q) conds.push(sql`d.search like ${`%${escapeLike(f.q.toLowerCase())}%`}`);
  const where = sql.join(conds, sql` and `);
  const dir = sql.raw(f.order === 'asc' ? 'asc' : 'desc');
  const col = { id: sql`t.id`, state: sql`t.state`, progress: sql`t.progress`, updatedAt: sql`t.updated_at` }[f.sort];
  const from = sql`upgrade_targets t join upgrade_campaigns c on c.id = t.campaign_id join devices d on d.id = t.device_id`;
  const [page, total] = await Promise.all([
    db.execute(sql`select t.campaign_id, t.device_id, d.name as device_name, d.sn, d.online, t.state, t.progress, t.attempt,
        t.reason, t.from_version, t.to_version, t.stage_at, t.updated_at, t.ended_at
      from ${from} where ${where} order by ${col} ${dir}, t.id ${dir} limit ${f.limit} offset ${(f.page - 1) * f.limit}`),
    db.execute(sql`select count(*)::int as n from ${from} where ${where}`),
  ]);
  return { total: rows<{ n: number }>(total)[0]!.n, items: rows<TargetRow>(page) };
}

export interface LogRow {
  id: number;
  campaign_id: number;
  device_id: number;
  sn: string;
  at: string | Date;
  state: UpgradeTargetState;
  attempt: number;
  progress: number | null;
  message: string | null;
}

export async function listLogs(
  db: Executor,
  f: { scope: string | undefined; campaignId?: number; deviceId?: number; order: 'asc' | 'desc'; page: number; limit: number },
) {
  const conds: SQL[] = [campaignSeen(f.scope)];
  if (f.campaignId !== undefined) conds.push(sql`l.campaign_id = ${f.campaignId}`);
  if (f.deviceId !== undefined) conds.push(sql`l.device_id = ${f.deviceId}`);
  const where = sql.join(conds, sql` and `);
  const dir = sql.raw(f.order === 'asc' ? 'asc' : 'desc');
  const from = sql`upgrade_logs l join upgrade_campaigns c on c.id = l.campaign_id join devices d on d.id = l.device_id`;
  const [page, total] = await Promise.all([
    db.execute(sql`select l.id, l.campaign_id, l.device_id, d.sn, l.at, l.state, l.attempt, l.progress, l.message
      from ${from} where ${where} order by l.at ${dir}, l.id ${dir} limit ${f.limit} offset ${(f.page - 1) * f.limit}`),
    db.execute(sql`select count(*)::int as n from ${from} where ${where}`),
  ]);
  return { total: rows<{ n: number }>(total)[0]!.n, items: rows<LogRow>(page) };
}

/** A device's open upgrade, found by the command of its current attempt. */
export async function targetByCommand(db: Executor, commandId: string) {
  const res = await db.execute(sql`
    select t.id, t.campaign_id, t.device_id, t.state, t.attempt, t.progress, c.software_version
    from upgrade_targets t join upgrade_campaigns c on c.id = t.campaign_id
    where t.command_id = ${commandId} and t.state in ${ACTIVE}`);
  return rows<{ id: number; campaign_id: number; device_id: number; state: UpgradeTargetState; attempt: number; progress: number; software_version: string }>(res)[0];
}

/**
 * Moves one device's upgrade from `from` to `to` (nothing when it has left `from` meanwhile) and
 * logs it. `stage`: the state changes, so its timeout starts again.
 */
export async function move(
  db: Executor,
  t: { id: number; from: UpgradeTargetState; to: UpgradeTargetState; progress?: number; reason?: string | null; message?: string | null; now: Date },
): Promise<boolean> {
  const final = ['succeeded', 'failed', 'timedOut', 'cancelled'].includes(t.to);
  const res = await db.execute(sql`
    with upd as (
      update upgrade_targets set state = ${t.to},
        progress = coalesce(${t.progress ?? null}::smallint, progress),
        reason = case when ${t.reason !== undefined} then ${t.reason ?? null} else reason end,
        stage_at = case when state = ${t.to} then stage_at else ${t.now.toISOString()}::timestamptz end,
        ended_at = case when ${final} then ${t.now.toISOString()}::timestamptz else null end,
        updated_at = ${t.now.toISOString()}::timestamptz
      where id = ${t.id} and state = ${t.from}
      returning campaign_id, device_id, state, attempt, progress
    ), logged as (
      insert into upgrade_logs (campaign_id, device_id, at, state, attempt, progress, message)
      select campaign_id, device_id, ${t.now.toISOString()}::timestamptz, state, attempt, progress, ${t.message ?? t.reason ?? null} from upd
    )
    select count(*)::int as n from upd`);
  return (rows<{ n: number }>(res)[0]?.n ?? 0) > 0;
}

/**
 * Devices that report the campaign's version: `verifying` ones, and any in progress that reports
 * it while it did not before (its `ok` was lost on the way) end `succeeded`.
 */
export async function verify(db: Executor, now: Date) {
  const at = now.toISOString();
  const res = await db.execute(sql`
    with done as (
      update upgrade_targets t set state = 'succeeded', progress = 100, to_version = d.reported_info->>'firmware',
        reason = null, ended_at = ${at}::timestamptz, updated_at = ${at}::timestamptz, stage_at = ${at}::timestamptz
      from upgrade_campaigns c, devices d
      where t.state in ${ACTIVE} and c.id = t.campaign_id and d.id = t.device_id
        and d.reported_info->>'firmware' = c.software_version
        and (t.state = 'verifying' or t.from_version is distinct from c.software_version)
      returning t.campaign_id, t.device_id, t.attempt, t.to_version
    ), logged as (
      insert into upgrade_logs (campaign_id, device_id, at, state, attempt, progress, message)
      select campaign_id, device_id, ${at}::timestamptz, 'succeeded', attempt, 100, 'the device reports ' || to_version from done
    )
    select count(*)::int as n from done`);
  return rows<{ n: number }>(res)[0]?.n ?? 0;
}

/**
 * Stages past their timeout: another attempt (queued again) while the campaign allows retries,
 * else `timedOut`. Returns them with the command to withdraw and the device to tell.
 */
export async function timeOutStages(db: Executor, now: Date) {
  const at = now.toISOString();
  const res = await db.execute(sql`
    with due as (
      select t.id, t.state as old_state, t.command_id, t.attempt <= c.retries as again
      from upgrade_targets t join upgrade_campaigns c on c.id = t.campaign_id
      where t.state in ${ACTIVE} and c.state = 'running'
        and t.stage_at < ${at}::timestamptz - make_interval(secs => c.stage_timeout_sec)
      for update of t skip locked
    ), upd as (
      update upgrade_targets t set
        state = case when due.again then 'queued' else 'timedOut' end,
        reason = 'no answer while ' || due.old_state || case when due.again then ': another attempt follows' else '' end,
        command_id = null, progress = 0,
        stage_at = ${at}::timestamptz, updated_at = ${at}::timestamptz,
        ended_at = case when due.again then null else ${at}::timestamptz end
      from due where t.id = due.id
      returning t.id, t.campaign_id, t.device_id, t.state, t.attempt, t.reason, due.command_id, due.old_state
    ), logged as (
      insert into upgrade_logs (campaign_id, device_id, at, state, attempt, progress, message)
      select campaign_id, device_id, ${at}::timestamptz, state, attempt, 0, reason from upd
    )
    select upd.*, d.sn, d.online, c.version_id from upd join devices d on d.id = upd.device_id
      join upgrade_campaigns c on c.id = upd.campaign_id`);
  return rows<Ended>(res);
}

/** What a round or a cancel ended: the device to tell, and the command to withdraw. */
export interface Ended {
  id: number;
  campaign_id: number;
  device_id: number;
  state: UpgradeTargetState;
  old_state: UpgradeTargetState;
  command_id: string | null;
  sn: string;
  online: boolean;
  version_id: number | null;
}

/**
 * Ends what has not ended: every open device of campaigns past their deadline (`timedOut`), or
 * of one campaign (optionally some of its devices) that the operator cancels (`cancelled`).
 */
export async function endOpen(
  db: Executor,
  by: { deadline: Date } | { campaignId: number; deviceIds?: number[]; reason: string },
  now: Date,
) {
  const at = now.toISOString();
  const which =
    'deadline' in by
      ? sql`c.state = 'running' and c.deadline <= ${by.deadline.toISOString()}::timestamptz`
      : sql`c.id = ${by.campaignId} ${by.deviceIds ? sql`and t.device_id = any(${intArray(by.deviceIds)})` : sql``}`;
  const state = 'deadline' in by ? 'timedOut' : 'cancelled';
  const reason = 'deadline' in by ? 'the campaign’s deadline passed' : by.reason;
  const res = await db.execute(sql`
    with due as (
      select t.id, t.state as old_state, t.command_id
      from upgrade_targets t join upgrade_campaigns c on c.id = t.campaign_id
      where ${which} and t.state in ${OPEN}
      for update of t
    ), upd as (
      update upgrade_targets t set state = ${state}, reason = ${reason}, command_id = null,
        stage_at = ${at}::timestamptz, updated_at = ${at}::timestamptz, ended_at = ${at}::timestamptz
      from due where t.id = due.id
      returning t.id, t.campaign_id, t.device_id, t.state, t.attempt, t.progress, due.command_id, due.old_state
    ), logged as (
      insert into upgrade_logs (campaign_id, device_id, at, state, attempt, progress, message)
      select campaign_id, device_id, ${at}::timestamptz, state, attempt, progress, ${reason} from upd
    )
    select upd.*, d.sn, d.online, c.version_id from upd join devices d on d.id = upd.device_id
      join upgrade_campaigns c on c.id = upd.campaign_id`);
  return rows<Ended>(res);
}

/** Campaigns the operator cancelled as a whole. */
export async function cancelCampaign(db: Executor, id: number, now: Date) {
  await db.execute(sql`update upgrade_campaigns set state = 'cancelled', ended_at = ${now.toISOString()}::timestamptz
    where id = ${id} and state = 'running'`);
}

/** Running campaigns none of whose devices is still open: finished. */
export async function finishCampaigns(db: Executor, now: Date): Promise<number[]> {
  const res = await db.execute(sql`
    update upgrade_campaigns c set state = 'finished', ended_at = ${now.toISOString()}::timestamptz
    where c.state = 'running' and not exists (select 1 from upgrade_targets t where t.campaign_id = c.id and t.state in ${OPEN})
    returning c.id`);
  return rows<{ id: number }>(res).map((r) => r.id);
}

/**
 * The next wave: per running campaign before its deadline, queued devices that are online, as
 * many as its free slots (concurrency less those in progress), oldest first.
 */
export async function nextWave(db: Executor, now: Date, max: number) {
  const res = await db.execute(sql`
    with free as (
      select c.id, c.concurrency - (select count(*) from upgrade_targets a where a.campaign_id = c.id and a.state in ${ACTIVE}) as slots
      from upgrade_campaigns c where c.state = 'running' and c.deadline > ${now.toISOString()}::timestamptz
    )
    select w.id, w.campaign_id, w.device_id, w.attempt, w.sn
    from free f cross join lateral (
      select t.id, t.campaign_id, t.device_id, t.attempt, d.sn from upgrade_targets t join devices d on d.id = t.device_id
      where t.campaign_id = f.id and t.state = 'queued' and d.online and d.enabled
      order by t.id limit greatest(f.slots, 0)
    ) w
    limit ${max}`);
  return rows<{ id: number; campaign_id: number; device_id: number; attempt: number; sn: string }>(res);
}

/** Marks a queued device sent under `commandId` (a new attempt); false when it left `queued`. */
export async function markSent(db: Executor, id: number, commandId: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const res = await db.execute(sql`
    with upd as (
      -- Never before the target's last step: a round whose clock was read before the campaign's
      -- transaction began (it sees the committed targets) would log 'sent' before 'queued'.
      update upgrade_targets t set state = 'sent', command_id = ${commandId}, attempt = t.attempt + 1, progress = 0, reason = null,
        stage_at = greatest(${at}::timestamptz, t.updated_at), updated_at = greatest(${at}::timestamptz, t.updated_at)
      where t.id = ${id} and t.state = 'queued'
      returning t.campaign_id, t.device_id, t.attempt, t.updated_at as at
    ), logged as (
      insert into upgrade_logs (campaign_id, device_id, at, state, attempt, progress, message)
      select campaign_id, device_id, at, 'sent', attempt, 0, null from upd
    )
    select count(*)::int as n from upd`);
  return (rows<{ n: number }>(res)[0]?.n ?? 0) > 0;
}

/** What the firmwareUpgrade command of a campaign carries. */
export async function campaignCommand(db: Executor, campaignId: number) {
  const res = await db.execute(sql`
    select c.id, c.version_id, c.version_name, c.software_version, c.url, c.stage_timeout_sec, c.deadline,
      v.module, v.size, v.sha256
    from upgrade_campaigns c left join firmware_versions v on v.id = c.version_id where c.id = ${campaignId}`);
  return rows<{
    id: number;
    version_id: number | null;
    version_name: string;
    software_version: string;
    url: string;
    stage_timeout_sec: number;
    deadline: string | Date;
    module: string | null;
    size: string | number | null;
    sha256: string | null;
  }>(res)[0];
}
