import { and, eq, gte, like, lt, sql, type SQL } from 'drizzle-orm';
import type { DeviceLogKind, ListCursor } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { deviceLatest, deviceLogs, devices } from '../../db/schema/index.js';
import { pageAndTotal } from '../../lib/query/paging.js';
import { boundTime } from '../../lib/query/filters.js';
import { keysetPage, keysetRows, keysetValue, type Keyset } from '../../lib/query/keyset.js';

// Reads of what ingestion wrote (src/telemetry writes these tables; this module reads them).

/** A device's newest value of each parameter, by semaphore id. */
export async function latestValues(db: Executor, deviceId: number) {
  const [row] = await db.select({ vals: deviceLatest.vals }).from(deviceLatest).where(eq(deviceLatest.deviceId, deviceId));
  const vals = (row?.vals ?? {}) as Record<string, [unknown, number]>;
  return Object.keys(vals)
    .sort()
    .map((semaphoreId) => ({ semaphoreId, value: vals[semaphoreId]![0], ts: new Date(vals[semaphoreId]![1]) }));
}

/** The device time of a device's newest message (one primary-key read), or undefined when it never sent one. */
export async function lastMessageAt(db: Executor, deviceId: number): Promise<Date | undefined> {
  const [row] = await db.select({ ts: deviceLatest.ts }).from(deviceLatest).where(eq(deviceLatest.deviceId, deviceId));
  return row?.ts;
}

export interface DeviceLogFilter {
  scope?: string;
  deviceId?: number;
  sn?: string;
  kind?: DeviceLogKind;
  from?: Date;
  to?: Date;
  page: number;
  limit: number;
  after?: ListCursor;
}

export async function listDeviceLogs(db: Executor, f: DeviceLogFilter) {
  const conds: SQL[] = [];
  // Logs of unknown devices (owner path '') are for the super administrator only.
  if (f.scope !== undefined) conds.push(like(deviceLogs.ownerPath, `${f.scope}%`));
  if (f.deviceId !== undefined) conds.push(eq(deviceLogs.deviceId, f.deviceId));
  if (f.sn) conds.push(eq(deviceLogs.sn, f.sn));
  if (f.kind) conds.push(eq(deviceLogs.kind, f.kind));
  if (f.from) conds.push(gte(deviceLogs.createdAt, boundTime(f.from)));
  if (f.to) conds.push(lt(deviceLogs.createdAt, boundTime(f.to)));
  const where = conds.length > 0 ? and(...conds) : undefined;
  const keyset: Keyset = { sort: 'createdAt', order: 'desc', column: deviceLogs.createdAt, id: deviceLogs.id, kind: 'timestamp' };
  const [rows, total] = await pageAndTotal(
    db,
    f,
    keysetRows(
      keyset,
      f,
      where,
      (cond) =>
        db
          .select({
            keyset: keysetValue(keyset),
            id: deviceLogs.id,
            deviceId: deviceLogs.deviceId,
            sn: deviceLogs.sn,
            deviceName: devices.name,
            kind: deviceLogs.kind,
            reason: deviceLogs.reason,
            detail: deviceLogs.detail,
            createdAt: deviceLogs.createdAt,
          })
          .from(deviceLogs)
          .leftJoin(devices, eq(devices.id, deviceLogs.deviceId))
          .where(cond),
      (cond) => db.select({ id: deviceLogs.id }).from(deviceLogs).where(cond),
    ),
    db.select({ one: sql`1` }).from(deviceLogs).where(where),
  );
  const page = keysetPage(keyset, rows, f.limit);
  return { ...total, next: page.next, items: page.rows.map(({ keyset: _k, ...row }) => row) };
}
