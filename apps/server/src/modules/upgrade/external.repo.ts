import { and, eq, gte, inArray, like, lt, lte, ne, sql } from 'drizzle-orm';
import { EXTERNAL_OPEN_STATES, EXTERNAL_TIMED_OUT, type EndpointParsedQuery, type ExternalEvent, type externalApi } from '@iot/contract';
import type { Db, Executor } from '../../db/client.js';
import { externalDevices, externalLogs, firmwareVersions } from '../../db/schema/index.js';
import { boundTime } from '../../lib/query/filters.js';
import { pageAndTotal } from '../../lib/query/paging.js';
import { keysetPage, keysetRows, keysetValue, type Keyset } from '../../lib/query/keyset.js';
import { escapeLike } from '../../lib/sql.js';
import { visibleVersions } from '../../lib/query/visibility.js';

export type ExternalDeviceRow = typeof externalDevices.$inferSelect;
export type ExternalLogRow = typeof externalLogs.$inferSelect;
export type FirmwareVersionRow = typeof firmwareVersions.$inferSelect;
export type NewLog = Omit<typeof externalLogs.$inferInsert, 'id'>;

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const OPEN = [...EXTERNAL_OPEN_STATES];

/** Rows owned in the caller's subtree; undefined scope (super administrator): all. */
const owned = (column: typeof externalDevices.ownerPath | typeof externalLogs.ownerPath, scopePath: string | undefined) =>
  scopePath ? like(column, `${escapeLike(scopePath)}%`) : undefined;

/** Which of these identifiers are registered already. */
export async function existingIdentifiers(db: Executor, identifiers: string[]): Promise<string[]> {
  if (identifiers.length === 0) return [];
  const found = await db.select({ identifier: externalDevices.identifier }).from(externalDevices).where(inArray(externalDevices.identifier, identifiers));
  return found.map((r) => r.identifier);
}

export async function insertDevices(
  db: Executor,
  devices: { identifier: string; name: string; model: string; credentialHash: string }[],
  owner: { ownerPath: string; createdBy: number },
): Promise<{ id: number; identifier: string }[]> {
  return db
    .insert(externalDevices)
    .values(devices.map((d) => ({ ...d, ...owner })))
    .returning({ id: externalDevices.id, identifier: externalDevices.identifier });
}

export type DeviceFilter = EndpointParsedQuery<typeof externalApi.list> & {
  scopePath?: string;
  /** Only devices that were ever assigned a version (/external/list). */
  assignedOnly?: boolean;
};

const DEVICE_SORTS: Record<DeviceFilter['sort'], Pick<Keyset, 'column' | 'kind' | 'nulls'>> = {
  createdAt: { column: externalDevices.createdAt, kind: 'timestamp' },
  updatedAt: { column: externalDevices.updatedAt, kind: 'timestamp' },
  lastCheckinAt: { column: externalDevices.lastCheckinAt, kind: 'timestamp', nulls: 'lastWhenDesc' },
  identifier: { column: externalDevices.identifier, kind: 'text' },
  version: { column: externalDevices.version, kind: 'text' },
};

export async function listDevices(db: Executor, f: DeviceFilter) {
  const q = f.q ? `%${escapeLike(f.q.toLowerCase())}%` : undefined;
  const where = and(
    owned(externalDevices.ownerPath, f.scopePath),
    f.assignedOnly ? ne(externalDevices.state, 'none') : undefined,
    q ? like(externalDevices.search, q) : undefined,
    f.model ? eq(externalDevices.model, f.model) : undefined,
    f.version !== undefined && f.version !== '' ? eq(externalDevices.version, f.version) : undefined,
    f.state ? eq(externalDevices.state, f.state) : undefined,
    f.versionId ? eq(externalDevices.versionId, f.versionId) : undefined,
  );
  const keyset: Keyset = { sort: f.sort, order: f.order, id: externalDevices.id, ...DEVICE_SORTS[f.sort] };
  const [found, total] = await pageAndTotal(
    db,
    f,
    keysetRows(
      keyset,
      f,
      where,
      (cond) => db.select({ device: externalDevices, keyset: keysetValue(keyset) }).from(externalDevices).where(cond),
      (cond) => db.select({ id: externalDevices.id }).from(externalDevices).where(cond),
    ),
    db.select({ one: sql`1` }).from(externalDevices).where(where),
  );
  const page = keysetPage(keyset, found.map((r) => ({ ...r, id: r.device.id })), f.limit);
  return { ...total, next: page.next, items: page.rows.map((r) => r.device) };
}

/** The devices of these ids the caller sees (its subtree's). */
export async function devicesByIds(db: Executor, ids: number[], scopePath: string | undefined): Promise<ExternalDeviceRow[]> {
  return db
    .select()
    .from(externalDevices)
    .where(and(inArray(externalDevices.id, ids), owned(externalDevices.ownerPath, scopePath)));
}

export async function deviceByIdentifier(db: Executor, identifier: string): Promise<ExternalDeviceRow | undefined> {
  const [row] = await db.select().from(externalDevices).where(eq(externalDevices.identifier, identifier));
  return row;
}

/** The device's row, locked for the check-in's transaction. */
export async function lockDevice(db: Executor, id: number): Promise<ExternalDeviceRow | undefined> {
  const [row] = await db.select().from(externalDevices).where(eq(externalDevices.id, id)).for('update');
  return row;
}

export async function updateDevice(db: Executor, id: number, set: Partial<typeof externalDevices.$inferInsert>): Promise<void> {
  await db.update(externalDevices).set(set).where(eq(externalDevices.id, id));
}

export async function deleteDevices(db: Executor, ids: number[]): Promise<number> {
  const res = await db.delete(externalDevices).where(inArray(externalDevices.id, ids)).returning({ id: externalDevices.id });
  return res.length;
}

export async function insertLogs(db: Executor, logs: NewLog[]): Promise<void> {
  if (logs.length > 0) await db.insert(externalLogs).values(logs);
}

export type LogFilter = EndpointParsedQuery<typeof externalApi.logs> & {
  scopePath?: string;
  /** Without the plain check-ins (/external/loglist). */
  upgradeOnly?: boolean;
};

export async function listLogs(db: Executor, f: LogFilter) {
  const where = and(
    owned(externalLogs.ownerPath, f.scopePath),
    f.deviceId ? eq(externalLogs.deviceId, f.deviceId) : undefined,
    f.event ? eq(externalLogs.event, f.event) : f.upgradeOnly ? ne(externalLogs.event, 'checkin') : undefined,
    f.from ? gte(externalLogs.at, boundTime(f.from)) : undefined,
    f.to ? lte(externalLogs.at, boundTime(f.to)) : undefined,
  );
  const keyset: Keyset = { sort: 'at', order: f.order, column: externalLogs.at, id: externalLogs.id, kind: 'timestamp' };
  const [found, total] = await pageAndTotal(
    db,
    f,
    keysetRows(
      keyset,
      f,
      where,
      (cond) =>
        db
          .select({ log: externalLogs, identifier: externalDevices.identifier, keyset: keysetValue(keyset) })
          .from(externalLogs)
          .innerJoin(externalDevices, eq(externalDevices.id, externalLogs.deviceId))
          .where(cond),
      (cond) => db.select({ id: externalLogs.id }).from(externalLogs).where(cond),
    ),
    db.select({ one: sql`1` }).from(externalLogs).where(where),
  );
  const page = keysetPage(keyset, found.map((r) => ({ ...r, id: r.log.id })), f.limit);
  return { ...total, next: page.next, items: page.rows.map((r) => ({ ...r.log, identifier: r.identifier })) };
}

/** Deletes the caller's logs of one device, older than a time, or both; answers how many. */
export async function deleteLogs(db: Executor, f: { deviceId?: number; before?: string; scopePath?: string }): Promise<number> {
  const res = await db
    .delete(externalLogs)
    .where(
      and(
        owned(externalLogs.ownerPath, f.scopePath),
        f.deviceId ? eq(externalLogs.deviceId, f.deviceId) : undefined,
        f.before ? lt(externalLogs.at, boundTime(f.before)) : undefined,
      ),
    )
    .returning({ id: externalLogs.id });
  return res.length;
}


export async function visibleVersion(db: Executor, id: number, scopePath: string | undefined): Promise<FirmwareVersionRow | undefined> {
  const [row] = await db.select().from(firmwareVersions).where(and(eq(firmwareVersions.id, id), visibleVersions(scopePath)));
  return row;
}

export async function versionById(db: Executor, id: number): Promise<FirmwareVersionRow | undefined> {
  const [row] = await db.select().from(firmwareVersions).where(eq(firmwareVersions.id, id));
  return row;
}

/** The versions a caller may assign, newest first (at most `limit`). */
export async function versionOptions(db: Executor, scopePath: string | undefined, limit: number) {
  return db
    .select({ id: firmwareVersions.id, name: firmwareVersions.name, softwareVersion: firmwareVersions.softwareVersion, url: firmwareVersions.url })
    .from(firmwareVersions)
    .where(visibleVersions(scopePath))
    .orderBy(sql`${firmwareVersions.createdAt} desc`, sql`${firmwareVersions.id} desc`)
    .limit(limit);
}

/** Assigns a version to these devices (already checked), each with one `assign` log row. */
export async function assign(
  db: Db,
  devices: ExternalDeviceRow[],
  version: FirmwareVersionRow,
  opts: { timeoutSec: number; userName: string },
): Promise<number> {
  if (devices.length === 0) return 0;
  return db.transaction(async (tx) => {
    const now = new Date();
    const res = await tx
      .update(externalDevices)
      .set({
        versionId: version.id,
        versionName: version.name,
        targetVersion: version.softwareVersion,
        state: 'assigned',
        progress: 0,
        reason: '',
        awaitingVersion: false,
        timeoutSec: opts.timeoutSec,
        assignedAt: now,
        deadline: new Date(now.getTime() + opts.timeoutSec * 1000),
        updatedAt: now,
      })
      .where(
        and(
          inArray(
            externalDevices.id,
            devices.map((d) => d.id),
          ),
          // Not one that started downloading meanwhile (the service refused those it saw).
          inArray(externalDevices.state, ['none', 'assigned', 'succeeded', 'failed', 'cancelled']),
        ),
      )
      .returning({ id: externalDevices.id, ownerPath: externalDevices.ownerPath });
    await insertLogs(
      tx,
      res.map((d) => ({
        deviceId: d.id,
        event: 'assign' as ExternalEvent,
        version: version.softwareVersion,
        versionId: version.id,
        message: opts.userName,
        ownerPath: d.ownerPath,
        at: now,
      })),
    );
    return res.length;
  });
}

/** Cancels the open assignments of these devices, each with one `cancel` log row. */
export async function cancel(db: Db, ids: number[], userName: string): Promise<number> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const res = await tx
      .update(externalDevices)
      .set({ state: 'cancelled', reason: '', awaitingVersion: false, deadline: null, updatedAt: now })
      .where(and(inArray(externalDevices.id, ids), inArray(externalDevices.state, OPEN)))
      .returning({ id: externalDevices.id, ownerPath: externalDevices.ownerPath, versionId: externalDevices.versionId, targetVersion: externalDevices.targetVersion });
    await insertLogs(
      tx,
      res.map((d) => ({
        deviceId: d.id,
        event: 'cancel' as ExternalEvent,
        version: d.targetVersion,
        versionId: d.versionId,
        message: userName,
        ownerPath: d.ownerPath,
        at: now,
      })),
    );
    return res.length;
  });
}

/**
 * Ends the open assignments whose deadline passed (of one device, or all): `failed`, reason
 * "timed out", one `failed` log row each. One statement, so racing sweeps end each once.
 */
export async function expireDue(db: Executor, deviceId?: number): Promise<number> {
  const which = deviceId === undefined ? sql`true` : sql`d.id = ${deviceId}`;
  const res = await db.execute(sql`
    with due as (
      update external_devices d set state = 'failed', reason = ${EXTERNAL_TIMED_OUT}, awaiting_version = false,
        deadline = null, updated_at = now()
      where ${which} and d.state in ('assigned', 'downloading', 'installing') and d.deadline < now()
      returning d.id, d.owner_path, d.version_id, d.target_version
    )
    insert into external_logs (device_id, event, version, version_id, message, owner_path)
    select id, 'failed', target_version, version_id, ${EXTERNAL_TIMED_OUT}, owner_path from due
    returning device_id`);
  return rows(res).length;
}
