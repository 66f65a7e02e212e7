import { sql } from 'drizzle-orm';
import { FENCE_KEPT_STATES } from '@iot/contract';
import type { Executor } from '../db/client.js';

// The crossing check's statements (fence.check.ts), inside the ingestion batch's transaction.

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
const KEPT = sql.join(FENCE_KEPT_STATES.map((s) => sql`${s}`), sql`, `);

export interface KeptFence {
  id: number;
  deviceId: number;
  lng: number;
  lat: number;
  radius: number;
  alarmOnEnter: boolean;
  /** Inside after the last crossing (or first fix) checked; undefined: none checked yet. */
  inside: boolean | undefined;
  /** Device time (ms) of the device's newest fix stored before this batch; 0: none. */
  ts: number;
}

/**
 * The fences these devices keep, with where each device was at its last crossing and the time of
 * its newest stored fix (an index-only lookup per device; this batch's fixes are not stored yet):
 * one statement. A fix older than that is late and changes nothing.
 */
export async function keptFences(db: Executor, deviceIds: readonly number[]): Promise<KeptFence[]> {
  if (deviceIds.length === 0) return [];
  const res = await db.execute(sql`
    select f.id, f.device_id, f.lng, f.lat, f.radius, f.alarm_on_enter, s.inside,
      (select max(p.ts) from device_positions p where p.device_id = f.device_id) as ts
    from device_fences f left join device_fence_states s on s.fence_id = f.id
    where f.device_id = any(${`{${deviceIds.join(',')}}`}::int[]) and f.state in (${KEPT})
    order by f.id`);
  return rows<{
    id: number; device_id: number; lng: number; lat: number; radius: number; alarm_on_enter: boolean;
    inside: boolean | null; ts: string | Date | null;
  }>(res).map((r) => ({
    id: r.id,
    deviceId: r.device_id,
    lng: Number(r.lng),
    lat: Number(r.lat),
    radius: r.radius,
    alarmOnEnter: r.alarm_on_enter,
    inside: r.inside ?? undefined,
    ts: r.ts === null ? 0 : new Date(r.ts).getTime(),
  }));
}

/**
 * Where each device now is with respect to each fence, written when it changes (a crossing, the
 * first fix after a fence is issued): one upsert; an older fix never overwrites a newer.
 */
export async function saveFenceStates(db: Executor, states: readonly { fenceId: number; inside: boolean; ts: string; distance: number }[]) {
  if (states.length === 0) return;
  await db.execute(sql`
    insert into device_fence_states (fence_id, inside, ts, distance)
    select x.fence_id, x.inside, x.ts, x.distance from json_to_recordset(${JSON.stringify(
      states.map((s) => ({ fence_id: s.fenceId, inside: s.inside, ts: s.ts, distance: s.distance })),
    )}::json) as x(fence_id int, inside boolean, ts timestamptz, distance float8)
    order by x.fence_id
    on conflict (fence_id) do update set inside = excluded.inside, ts = excluded.ts, distance = excluded.distance
      where excluded.ts > device_fence_states.ts`);
}
