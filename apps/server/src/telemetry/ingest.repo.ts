import { and, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { BATTERY_IDLE_CURRENT_A, PACK_PARAMS, type DeviceLogKind } from '@iot/contract';
import type { Db, Executor } from '../db/client.js';
import { deviceCommands, devices, deviceTypeAlarms, deviceTypeParams } from '../db/schema/index.js';

/** What ingestion needs to know of a device (the demo fleet selects the same). */
export const INGEST_DEVICE_COLUMNS = {
  id: devices.id,
  sn: devices.sn,
  typeId: devices.typeId,
  ownerPath: devices.ownerPath,
  credentialHash: devices.credentialHash,
  enabled: devices.enabled,
  online: devices.online,
  /** A sub-device's gateway (its parent device). */
  parentId: devices.parentId,
};

/** A device by its serial number, as ingestion needs it. */
export async function deviceBySn(db: Executor, sn: string) {
  const [row] = await db
    .select(INGEST_DEVICE_COLUMNS)
    .from(devices)
    .where(eq(devices.sn, sn));
  return row;
}
export type IngestDevice = NonNullable<Awaited<ReturnType<typeof deviceBySn>>>;

export async function typeParams(db: Executor, typeId: number) {
  return db
    .select({
      semaphoreId: deviceTypeParams.semaphoreId,
      dataType: deviceTypeParams.dataType,
      min: deviceTypeParams.min,
      max: deviceTypeParams.max,
      enumValues: deviceTypeParams.enumValues,
    })
    .from(deviceTypeParams)
    .where(eq(deviceTypeParams.typeId, typeId));
}

/** The semaphore ids a type's alarm rules are about (a device alarm may name one of these). */
export async function typeAlarmIds(db: Executor, typeId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ semaphoreId: deviceTypeAlarms.semaphoreId })
    .from(deviceTypeAlarms)
    .where(eq(deviceTypeAlarms.typeId, typeId));
  return rows.map((r) => r.semaphoreId);
}

export interface TelemetryRow {
  deviceId: number;
  ts: string;
  vals: Record<string, unknown>;
}
/** A device's newest values of a batch: {semaphore id: [value, epoch ms]}, with their time span. */
export interface LatestRow {
  deviceId: number;
  vals: Record<string, [unknown, number]>;
  /** Oldest and newest epoch ms among `vals`. */
  min: number;
  max: number;
}
export interface PositionRow {
  deviceId: number;
  ts: string;
  lng: number;
  lat: number;
  speed?: number;
  direction?: number;
  pdop?: number;
  satellites?: number;
}
export interface LogRow {
  deviceId: number | null;
  sn: string;
  kind: DeviceLogKind;
  reason?: string;
  detail?: Record<string, unknown>;
  ownerPath: string;
}
export interface SeenRow {
  deviceId: number;
  at: string;
  /** Set when the state changes; absent: only the last-seen time is written. */
  online?: boolean;
  /** The status message's `info`, set when it differs from what the device reported before. */
  info?: Record<string, string | number | boolean>;
  /**
   * Set by writeBatch: the devices row already had `online` (another instance saw the change
   * first), so no change is announced and the change's log row is left out.
   */
  unchanged?: boolean;
}

/** The rows of a batch; the latest values are derived from `telemetry` (latestOf). */
export interface Batch {
  telemetry: TelemetryRow[];
  positions: PositionRow[];
  logs: LogRow[];
  seen: SeenRow[];
}

/**
 * Writes one batch in one transaction, one statement per table: JSON parameters expanded by
 * json_to_recordset (the same on PGlite and PostgreSQL, no bind-parameter limit). Rows of a device
 * deleted since it connected are left out (its log rows keep the SN only), so one such device
 * cannot fail the whole batch of everyone else's messages on a foreign key.
 *
 * Samples are idempotent (docs/PROTOCOL.md §2): a telemetry row or GPS fix is identified by its
 * device and ts (unique indexes, migration 0035), so a message sent again, in this batch or after
 * an earlier one was stored, adds no row. The batch's own copies are merged first (samplesOf).
 */
export async function writeBatch(db: Db, b: Batch, hook?: BatchStep): Promise<void> {
  const samples = samplesOf(b);
  await db.transaction(async (tx) => {
    // Lock order (ARCHITECTURE.md, "Ingestion"): the batch's device rows first, in id order, before
    // anything else. Two batches of the same device then queue on that row instead of each holding
    // what the other needs next (one batch's device_latest row, the other's devices row: a deadlock).
    // FOR NO KEY UPDATE is what the updates below take anyway; it does not block the foreign-key
    // checks (FOR KEY SHARE) of other batches' inserts.
    const ids = deviceIdsOf(b);
    if (ids.length > 0) {
      await tx.execute(sql`select id from devices where id = any(${`{${ids.join(',')}}`}::int[]) order by id for no key update`);
    }
    // The alarm engine, next: its alarms commit with the data (ARCHITECTURE.md, "Alarms"); what it
    // has left to do (the devices' warning levels) runs last.
    const after = hook ? await hook(tx, b) : undefined;
    const repeated = await repeatedPresence(tx, b);
    if (samples.telemetry.length > 0) {
      // A sample already stored (a resend) gets the message's values merged in: an identical
      // resend changes nothing (no new row version), a message of the same time adds its values.
      await tx.execute(sql`
        insert into telemetry (device_id, ts, vals)
        select x.device_id, x.ts, x.vals from json_to_recordset(${JSON.stringify(
          samples.telemetry.map((r) => ({ device_id: r.deviceId, ts: r.ts, vals: r.vals })),
        )}::json) as x(device_id int, ts timestamptz, vals jsonb)
        join devices d on d.id = x.device_id
        on conflict (device_id, ts) do update set vals = telemetry.vals || excluded.vals
          where telemetry.vals is distinct from telemetry.vals || excluded.vals`);
    }
    if (b.telemetry.length > 0) {
      // One row per device: its values merged with `||` when every one of them is at least as new
      // as the newest stored (the usual case); otherwise key by key, the newer time winning, so a
      // message arriving late never overwrites a newer value.
      await tx.execute(sql`
        insert into device_latest (device_id, vals, ts)
        select x.device_id, x.vals, to_timestamp(x.max / 1000.0) from json_to_recordset(${JSON.stringify(
          latestOf(b.telemetry).map((r) => ({ device_id: r.deviceId, vals: r.vals, max: r.max })),
        )}::json) as x(device_id int, vals jsonb, max float8)
        join devices d on d.id = x.device_id
        on conflict (device_id) do update set
          vals = case when (select min((e.v->>1)::float8) from jsonb_each(excluded.vals) e(k, v))
              >= extract(epoch from device_latest.ts) * 1000 then device_latest.vals || excluded.vals
            else (select jsonb_object_agg(k, case when o.v is null or (n.v is not null and (n.v->>1)::float8 >= (o.v->>1)::float8)
                  then n.v else o.v end)
                from jsonb_each(device_latest.vals) o(k, v) full join jsonb_each(excluded.vals) n(k, v) using (k)) end,
          ts = greatest(device_latest.ts, excluded.ts)`);
      // The battery summary of the devices whose message carried a battery figure, from their
      // merged latest values (a message may carry some cells only): one statement.
      const battery = batteryDevicesOf(b.telemetry);
      if (battery.length > 0) await upsertBattery(tx, battery);
    }
    if (samples.positions.length > 0) {
      // A fix already stored (a resend) is kept as it is, and does not move the device on maps:
      // the device's position on maps is the newest fix this statement stored.
      await tx.execute(sql`
        with stored as (
          insert into device_positions (device_id, ts, lng, lat, speed, direction, pdop, satellites)
          select x.device_id, x.ts, x.lng, x.lat, x.speed, x.direction, x.pdop, x.satellites from json_to_recordset(${JSON.stringify(
            samples.positions.map((r) => ({
              device_id: r.deviceId, ts: r.ts, lng: r.lng, lat: r.lat, speed: r.speed ?? null,
              direction: r.direction ?? null, pdop: r.pdop ?? null, satellites: r.satellites ?? null,
            })),
          )}::json) as x(device_id int, ts timestamptz, lng float8, lat float8, speed float8, direction float8,
            pdop float8, satellites smallint)
          join devices d on d.id = x.device_id
          on conflict (device_id, ts) do nothing
          returning device_id, ts, lng, lat
        )
        -- A device placed at a fixed position (map mode 1) keeps it; its fixes are still its track.
        update devices d set lng = p.lng, lat = p.lat
        from (select distinct on (device_id) device_id, lng, lat from stored order by device_id, ts desc) p
        where d.id = p.device_id and d.map_mode <> 1`);
    }
    const logs = repeated.size === 0 ? b.logs : b.logs.filter((l) => !repeated.has(l));
    if (logs.length > 0) {
      // The owner line is the device's as it stands in the batch's transaction, not the one
      // remembered since the device connected: a device moved, or its owner moved in the user
      // tree, logs into its new line at once. Unknown or deleted devices keep the row's own ('').
      // Scalar lookups, not a join, so that the rows keep the batch's order (their ids).
      await tx.execute(sql`
        insert into device_logs (device_id, sn, kind, reason, detail, owner_path)
        select (select d.id from devices d where d.id = x.device_id), x.sn, x.kind, x.reason, x.detail,
          coalesce((select d.owner_path from devices d where d.id = x.device_id), x.owner_path)
        from json_to_recordset(${JSON.stringify(
          logs.map((r) => ({
            device_id: r.deviceId, sn: r.sn, kind: r.kind, reason: r.reason ?? null, detail: r.detail ?? {},
            owner_path: r.ownerPath,
          })),
        )}::json) as x(device_id int, sn text, kind text, reason text, detail jsonb, owner_path text)`);
    }
    if (b.seen.length > 0) {
      const seen = JSON.stringify(
        b.seen.map((r) => ({ device_id: r.deviceId, at: r.at, online: r.online ?? null, info: r.info ?? null })),
      );
      // The devices row only when its state changes (connect, disconnect, new info): the minute's
      // "still here" goes to device_presence alone.
      await tx.execute(sql`
        update devices d set online = coalesce(s.online, d.online), reported_info = coalesce(s.info, d.reported_info)
        from json_to_recordset(${seen}::json) as s(device_id int, at timestamptz, online boolean, info jsonb)
        where d.id = s.device_id
          and (s.online is distinct from d.online and s.online is not null
            or s.info is distinct from d.reported_info and s.info is not null)`);
      // One row per device (the newest time), in id order like the locks above; a device deleted
      // since it connected is left out.
      await tx.execute(sql`
        insert into device_presence (device_id, last_seen_at)
        select s.device_id, max(s.at)
        from json_to_recordset(${seen}::json) as s(device_id int, at timestamptz)
        where exists (select 1 from devices d where d.id = s.device_id)
        group by s.device_id
        order by s.device_id
        on conflict (device_id) do update set last_seen_at = greatest(device_presence.last_seen_at, excluded.last_seen_at)`);
    }
    if (after) await after(tx);
  });
}

/**
 * Presence changes decided against the devices row (decision 0038): with several instances, one
 * may take a device online or offline that the database already has so (another instance saw its
 * message, connection or silence first). Such a seen row is marked `unchanged` and the batch's
 * online/offline log rows of that device are returned to be left out, unless the batch also has
 * the opposite change (the device really went and came back). Read under the batch's row locks.
 */
async function repeatedPresence(tx: Executor, b: Batch): Promise<Set<LogRow>> {
  const changes = b.seen.filter((r) => {
    r.unchanged = undefined;
    return r.online !== undefined;
  });
  const repeated = new Set<LogRow>();
  if (changes.length === 0) return repeated;
  const res = await tx.execute(sql`select id, online from devices where id = any(${`{${changes.map((r) => r.deviceId).join(',')}}`}::int[])`);
  const stored = new Map((res as unknown as { rows: { id: number; online: boolean }[] }).rows.map((r) => [r.id, r.online]));
  const kinds = new Map<number, LogRow[]>();
  for (const l of b.logs) {
    if (l.deviceId === null || (l.kind !== 'online' && l.kind !== 'offline')) continue;
    kinds.set(l.deviceId, [...(kinds.get(l.deviceId) ?? []), l]);
  }
  for (const r of changes) {
    if (stored.get(r.deviceId) !== r.online) continue;
    const own = kinds.get(r.deviceId) ?? [];
    const word = r.online ? 'online' : 'offline';
    if (own.some((l) => l.kind !== word)) continue;
    r.unchanged = true;
    for (const l of own) repeated.add(l);
  }
  return repeated;
}

/** Work a batch hook does inside the batch's transaction; what it returns runs as the last statement. */
export type BatchStep = (tx: Executor, b: Batch) => Promise<((tx: Executor) => Promise<void>) | undefined>;

/** Every device a batch writes a row for, ascending (the order its row locks are taken in). */
export function deviceIdsOf(b: Batch): number[] {
  const ids = new Set<number>();
  for (const r of b.telemetry) ids.add(r.deviceId);
  for (const r of b.positions) ids.add(r.deviceId);
  for (const r of b.seen) ids.add(r.deviceId);
  for (const r of b.logs) if (r.deviceId !== null) ids.add(r.deviceId);
  return [...ids].sort((x, y) => x - y);
}

/** What the device log says of a command (kind `command`): sent, queued, recorded offline, timed out. */
export interface CommandLogEntry {
  deviceId: number;
  detail: { id: string; kind: string; event: 'sent' | 'resent' | 'queued' | 'offline' | 'timeout' | 'withdrawn'; via?: 'http' };
}

/**
 * Device log rows for commands, one statement however many (an expiry sweep may end many at
 * once); the SN and owner path come from the device, a device deleted meanwhile is left out.
 */
export async function insertCommandLogs(db: Executor, entries: readonly CommandLogEntry[]) {
  if (entries.length === 0) return;
  await db.execute(sql`
    insert into device_logs (device_id, sn, kind, detail, owner_path)
    select d.id, d.sn, 'command', x.detail, d.owner_path
    from json_to_recordset(${JSON.stringify(
      entries.map((e) => ({ device_id: e.deviceId, detail: e.detail })),
    )}::json) as x(device_id int, detail jsonb)
    join devices d on d.id = x.device_id`);
}

/** Devices marked online (start-up: the embedded broker's connections did not survive). */
export async function onlineDevices(db: Executor) {
  return db
    .select({ id: devices.id, sn: devices.sn, ownerPath: devices.ownerPath })
    .from(devices)
    .where(eq(devices.online, true));
}

/** What the database says of devices' presence: online, and when any instance last heard them. */
export async function presenceOf(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  const res = await db.execute(sql`
    select d.id, d.online, p.last_seen_at as "lastSeen" from devices d left join device_presence p on p.device_id = d.id
    where d.id = any(${`{${ids.join(',')}}`}::int[])`);
  return (res as unknown as { rows: { id: number; online: boolean; lastSeen: string | Date | null }[] }).rows;
}

export async function devicesByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: devices.id, sn: devices.sn, ownerPath: devices.ownerPath })
    .from(devices)
    .where(inArray(devices.id, ids));
}

// ---- partitions -------------------------------------------------------------------------------

const PARTITION_RE = /^telemetry_p(\d{8})$/;

export async function telemetryPartitions(db: Executor): Promise<string[]> {
  const rows = await db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname = 'telemetry'`);
  // Both drivers answer { rows }.
  return (rows as unknown as { rows: { name: string }[] }).rows.map((r) => r.name);
}

/** `telemetry_pYYYYMMDD` for a UTC day. */
export function partitionName(day: Date): string {
  return `telemetry_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

export function partitionDay(name: string): Date | undefined {
  const m = PARTITION_RE.exec(name);
  if (!m) return undefined;
  const d = m[1]!;
  return new Date(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T00:00:00Z`);
}

export async function createPartition(db: Executor, day: Date) {
  const from = day.toISOString();
  const to = new Date(day.getTime() + 86_400_000).toISOString();
  await db.execute(
    sql.raw(
      `create table if not exists ${partitionName(day)} partition of telemetry for values from ('${from}') to ('${to}')`,
    ),
  );
}

/** Drops a whole day: retention never deletes row by row. */
export async function dropPartition(db: Executor, name: string) {
  if (!PARTITION_RE.test(name)) throw new Error(`not a telemetry partition: ${name}`);
  await db.execute(sql.raw(`drop table if exists ${name}`));
}

// ---- batches ----------------------------------------------------------------------------------

/**
 * The rows a batch stores, one per sample (one ON CONFLICT DO UPDATE statement cannot touch a row
 * twice): telemetry rows of the same device and ts (a message sent again while the first copy
 * still waits in the queue, or two messages of the same time) become one, their values merged in
 * arrival order as the upsert merges them into a stored row; of GPS fixes of the same device and
 * ts the first is kept, as the insert keeps a stored one. The batch itself is left as it is: the
 * latest values, the alarm engine and the live events take its messages one by one as before,
 * and none of them adds anything up (a copy changes nothing in them: the latest values and the
 * alarm engine keep the newest device time and pass over an equal one, the live channel sends
 * the newest values). The history rollups (telemetry_rollup) are computed from the stored rows, a
 * whole day at once, never added to per batch, so a resend cannot count twice there either.
 */
export function samplesOf(b: Pick<Batch, 'telemetry' | 'positions'>): Pick<Batch, 'telemetry' | 'positions'> {
  let telemetry = b.telemetry;
  if (telemetry.length > 1) {
    const rows = new Map<string, TelemetryRow>();
    for (const r of telemetry) {
      const key = `${r.deviceId} ${r.ts}`;
      const first = rows.get(key);
      rows.set(key, first ? { ...first, vals: { ...first.vals, ...r.vals } } : r);
    }
    if (rows.size < telemetry.length) telemetry = [...rows.values()];
  }
  let positions = b.positions;
  if (positions.length > 1) {
    const fixes = new Map<string, PositionRow>();
    for (const r of positions) {
      const key = `${r.deviceId} ${r.ts}`;
      if (!fixes.has(key)) fixes.set(key, r);
    }
    if (fixes.size < positions.length) positions = [...fixes.values()];
  }
  return { telemetry, positions };
}

/**
 * The latest-values rows of a batch's telemetry: one per device, the newest value of each of its
 * parameters (one upsert cannot touch a row twice).
 */
export function latestOf(telemetry: readonly TelemetryRow[]): LatestRow[] {
  const byDevice = new Map<number, LatestRow>();
  for (const t of telemetry) {
    const ms = Date.parse(t.ts);
    let row = byDevice.get(t.deviceId);
    if (!row) {
      row = { deviceId: t.deviceId, vals: {}, min: ms, max: ms };
      byDevice.set(t.deviceId, row);
    }
    for (const k in t.vals) {
      const prev = row.vals[k];
      if (!prev || prev[1] <= ms) row.vals[k] = [t.vals[k], ms];
    }
  }
  // The time span of what is kept: the merge is plain `||` when its oldest is newer than the row.
  for (const row of byDevice.values()) {
    let min = Infinity;
    let max = -Infinity;
    for (const k in row.vals) {
      const ms = row.vals[k]![1];
      if (ms < min) min = ms;
      if (ms > max) max = ms;
    }
    row.min = min;
    row.max = max;
  }
  return [...byDevice.values()];
}

// ---- commands -----------------------------------------------------------------------------------

export type CommandRow = typeof deviceCommands.$inferSelect;

export async function insertCommand(db: Executor, row: typeof deviceCommands.$inferInsert): Promise<CommandRow> {
  const [created] = await db.insert(deviceCommands).values(row).returning();
  return created!;
}

/**
 * Takes pending commands for delivery: marks them sent and returns the ids this call took. A
 * command two deliveries read at once (a device reconnecting while its operator sends) is taken
 * by one of them only, so it reaches the device once.
 */
export async function claimCommands(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .update(deviceCommands)
    .set({ status: 'sent', sentAt: new Date() })
    .where(and(inArray(deviceCommands.id, ids), eq(deviceCommands.status, 'pending')))
    .returning({ id: deviceCommands.id });
  return new Set(rows.map((r) => r.id));
}

/** Gives back taken commands that could not be published: pending again, unless answered meanwhile. */
export async function releaseCommands(db: Executor, ids: string[]) {
  if (ids.length === 0) return;
  await db
    .update(deviceCommands)
    .set({ status: 'pending', sentAt: null })
    .where(and(inArray(deviceCommands.id, ids), eq(deviceCommands.status, 'sent')));
}

/**
 * Commands not delivered yet and still valid, oldest first; `unanswered`: also those delivered
 * that the device has not answered at all (no progress either).
 */
export async function pendingCommands(db: Executor, deviceId: number, now: Date, opts: { unanswered?: boolean } = {}) {
  const open = opts.unanswered
    ? or(eq(deviceCommands.status, 'pending'), and(eq(deviceCommands.status, 'sent'), isNull(deviceCommands.progress)))
    : eq(deviceCommands.status, 'pending');
  return db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), open, gt(deviceCommands.expiresAt, now)))
    .orderBy(deviceCommands.createdAt)
    .limit(20);
}

/** The device's answer to one of its own open commands; undefined when there is none. */
export async function answerCommand(
  db: Executor,
  deviceId: number,
  id: string,
  change: { status?: 'succeeded' | 'failed'; message?: string; progress?: number },
): Promise<CommandRow | undefined> {
  const [row] = await db
    .update(deviceCommands)
    .set({
      ...(change.status ? { status: change.status, endedAt: new Date() } : {}),
      ...(change.message !== undefined ? { message: change.message } : {}),
      ...(change.progress !== undefined ? { progress: Math.round(change.progress) } : {}),
    })
    .where(
      and(
        eq(deviceCommands.id, id),
        eq(deviceCommands.deviceId, deviceId),
        inArray(deviceCommands.status, ['pending', 'sent']),
      ),
    )
    .returning();
  return row;
}

/** Open commands the console withdrew: `failed` with `message`; returns them. */
export async function withdrawCommands(db: Executor, ids: string[], message: string): Promise<CommandRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(deviceCommands)
    .set({ status: 'failed', message, endedAt: new Date() })
    .where(and(inArray(deviceCommands.id, ids), inArray(deviceCommands.status, ['pending', 'sent'])))
    .returning();
}

/** Open commands past their expiry become `timeout`; returns them. */
export async function expireCommands(db: Executor, now: Date): Promise<CommandRow[]> {
  return db
    .update(deviceCommands)
    .set({ status: 'timeout', endedAt: now })
    .where(and(inArray(deviceCommands.status, ['pending', 'sent']), lte(deviceCommands.expiresAt, now)))
    .returning();
}

export async function commandById(db: Executor, id: string) {
  const [row] = await db.select().from(deviceCommands).where(eq(deviceCommands.id, id));
  return row;
}

// ---- battery summary --------------------------------------------------------------------------

/** Whether a semaphore id is one the battery summary (device_battery) is made of. */
export const isBatteryId = (k: string) =>
  k === PACK_PARAMS.soc || k === PACK_PARAMS.current || (k.length === 8 && (k.startsWith(PACK_PARAMS.cellVoltagePrefix) || k.startsWith(PACK_PARAMS.cellTempPrefix)));

/** The devices of a batch's telemetry that sent a battery figure, ascending. */
export function batteryDevicesOf(telemetry: readonly TelemetryRow[]): number[] {
  const ids = new Set<number>();
  for (const t of telemetry) {
    if (ids.has(t.deviceId)) continue;
    for (const k in t.vals) if (isBatteryId(k)) { ids.add(t.deviceId); break; }
  }
  return [...ids].sort((x, y) => x - y);
}

/**
 * Recomputes the battery summary of these devices from their latest values (device_latest), in one
 * statement: SOC, current and its state, the highest cell temperature and the cell voltage spread
 * (mV, two cells or more). Anything but a JSON number (text, an object, null for NaN) counts as not
 * reported: it can never fail the batch. A number is always a finite double (every value reached
 * the database through JSON.stringify), so its cast cannot overflow. Each key is classified once
 * and the aggregates compare that letter: the statement costs ~20 % less than with a LIKE in
 * every FILTER (bench/README.md, "Home dashboard, battery style").
 */
export async function upsertBattery(db: Executor, deviceIds: readonly number[]) {
  const { soc, current, cellVoltagePrefix: cellV, cellTempPrefix: cellT } = PACK_PARAMS;
  await db.execute(sql`
    insert into device_battery (device_id, soc, current, state, max_cell_temp, cell_delta_mv, updated_at)
    select l.device_id, s.soc, s.cur,
      case when s.cur is null then null when abs(s.cur) < ${BATTERY_IDLE_CURRENT_A} then 'idle'
        when s.cur > 0 then 'charging' else 'discharging' end,
      s.temp, case when s.cells >= 2 then round(((s.vmax - s.vmin) * 1000)::numeric, 3)::float8 end, l.ts
    from device_latest l
    cross join lateral (
      select max(x.n) filter (where x.c = 's') as soc, max(x.n) filter (where x.c = 'c') as cur,
        max(x.n) filter (where x.c = 't') as temp,
        max(x.n) filter (where x.c = 'v') as vmax, min(x.n) filter (where x.c = 'v') as vmin,
        count(x.n) filter (where x.c = 'v') as cells
      from (
        select case when e.k = ${soc} then 's' when e.k = ${current} then 'c'
            when length(e.k) = 8 and left(e.k, 5) = ${cellV} then 'v' when length(e.k) = 8 and left(e.k, 5) = ${cellT} then 't' end as c,
          case when jsonb_typeof(e.v -> 0) = 'number' then (e.v -> 0)::float8 end as n
        from jsonb_each(l.vals) e(k, v)
      ) x
      where x.c is not null
    ) s
    where l.device_id = any(${`{${deviceIds.join(',')}}`}::int[])
    order by l.device_id
    on conflict (device_id) do update set soc = excluded.soc, current = excluded.current, state = excluded.state,
      max_cell_temp = excluded.max_cell_temp, cell_delta_mv = excluded.cell_delta_mv, updated_at = excluded.updated_at`);
}
