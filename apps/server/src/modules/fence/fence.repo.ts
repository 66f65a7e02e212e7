import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FenceAction, FenceOp, FenceState } from '@iot/contract';
import type { Db, Executor } from '../../db/client.js';
import { deviceFenceEvents, deviceFenceStates, deviceFences } from '../../db/schema/index.js';

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

export type FenceRow = typeof deviceFences.$inferSelect;

/** Fences counted against the per-device limit: kept by the device or waiting for its answer. */
export async function countOpen(db: Executor, deviceId: number): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(deviceFences)
    .where(and(eq(deviceFences.deviceId, deviceId), inArray(deviceFences.state, ['set', 'issued', 'relocked'])));
  return r?.n ?? 0;
}

/** A new fence in state `set` with its first history row (who set it), waiting for its command. */
export async function createFence(
  db: Db,
  f: { deviceId: number; lng: number; lat: number; radius: number; action: FenceAction; alarmOnEnter: boolean; userId: number; userName: string },
): Promise<FenceRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(deviceFences)
      .values({ ...f, state: 'set', pendingOp: 'set', createdBy: f.userId, createdByName: f.userName })
      .returning();
    await tx.insert(deviceFenceEvents).values({ fenceId: row!.id, state: 'set', op: 'set', userId: f.userId, userName: f.userName });
    return row!;
  });
}

export async function fenceById(db: Executor, id: number): Promise<FenceRow | undefined> {
  const [row] = await db.select().from(deviceFences).where(eq(deviceFences.id, id));
  return row;
}

/**
 * Takes a kept fence for a remove or re-lock: one command at a time per fence (false when another
 * waits, or the fence is not in one of `states`). The command is sent after, then attached.
 */
export async function claim(db: Executor, id: number, op: FenceOp, states: readonly FenceState[]): Promise<boolean> {
  const res = await db
    .update(deviceFences)
    .set({ pendingOp: op, updatedAt: new Date() })
    .where(and(eq(deviceFences.id, id), isNull(deviceFences.pendingOp), inArray(deviceFences.state, [...states])))
    .returning({ id: deviceFences.id });
  return res.length === 1;
}

/** Gives a claim back (its command could not be stored). */
export async function unclaim(db: Executor, id: number): Promise<void> {
  await db.update(deviceFences).set({ pendingOp: null }).where(and(eq(deviceFences.id, id), isNull(deviceFences.pendingCommand)));
}

/** The command carrying the fence's pending op: its end settles the fence. */
export async function attachCommand(db: Executor, id: number, commandId: string): Promise<void> {
  await db.update(deviceFences).set({ pendingCommand: commandId, updatedAt: new Date() }).where(eq(deviceFences.id, id));
}

/** A fence the device never kept (failed, offline) is removed without a command. */
export async function removeUnsent(db: Db, id: number, user: { userId: number; userName: string }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const res = await tx
      .update(deviceFences)
      .set({ state: 'removed', updatedAt: new Date() })
      .where(and(eq(deviceFences.id, id), isNull(deviceFences.pendingOp), inArray(deviceFences.state, ['failed', 'offline'])))
      .returning({ id: deviceFences.id });
    if (res.length === 0) return false;
    await tx.insert(deviceFenceEvents).values({ fenceId: id, state: 'removed', op: 'close', userId: user.userId, userName: user.userName });
    return true;
  });
}

export interface Settled {
  id: number;
  deviceId: number;
  op: FenceOp;
  state: FenceState;
}

/**
 * Settles fences whose command has ended (of these commands, or of this device): the fence takes
 * the state the answer gives (set: issued / failed / offline; remove: removed; re-lock: relocked;
 * a failed remove or re-lock leaves it as it was) and one history row records it, with the user
 * who sent the command and the device's reason. One statement; a fence settles once (the row
 * lock and the cleared `pending_command`), however many callers race.
 */
export async function settle(db: Executor, by: { commandIds: readonly string[] } | { deviceId: number }): Promise<Settled[]> {
  const which =
    'commandIds' in by
      ? sql`f.pending_command = any(${`{${by.commandIds.map((id) => `"${id}"`).join(',')}}`}::text[])`
      : sql`f.device_id = ${by.deviceId} and f.pending_command is not null`;
  if ('commandIds' in by && by.commandIds.length === 0) return [];
  const res = await db.execute(sql`
    with due as (
      select f.id, f.device_id, f.pending_op as op, f.state as old_state, c.id as command_id, c.status, c.message,
        c.created_by, c.ended_at
      from device_fences f join device_commands c on c.id = f.pending_command
      where ${which} and c.status in ('succeeded', 'failed', 'timeout', 'offline')
      for update of f
    ), next as (
      select due.*,
        case when status = 'succeeded' then case op when 'set' then 'issued' when 'close' then 'removed' else 'relocked' end
          when status = 'offline' then 'offline' else 'failed' end as reached,
        case when status = 'succeeded' then case op when 'set' then 'issued' when 'close' then 'removed' else 'relocked' end
          when op = 'set' then case when status = 'offline' then 'offline' else 'failed' end
          else old_state end as state
      from due
    ), upd as (
      update device_fences f set state = n.state, pending_op = null, pending_command = null, updated_at = now()
      from next n where f.id = n.id
      returning f.id
    ), ev as (
      insert into device_fence_events (fence_id, at, state, op, user_id, user_name, reason, timed_out, command_id)
      select n.id, coalesce(n.ended_at, now()), n.reached, n.op, n.created_by, (select u.username from users u where u.id = n.created_by),
        n.message, n.status = 'timeout', n.command_id
      from next n
    )
    select id, device_id, op, state from next`);
  return rows<{ id: number; device_id: number; op: FenceOp; state: FenceState }>(res).map((r) => ({
    id: r.id,
    deviceId: r.device_id,
    op: r.op,
    state: r.state,
  }));
}

/** A device's fences, newest first (`ids`: only these), with the state of the crossing check. */
export async function listFences(db: Executor, f: { deviceId?: number; ids?: number[]; limit: number }) {
  return db
    .select({
      id: deviceFences.id,
      deviceId: deviceFences.deviceId,
      lng: deviceFences.lng,
      lat: deviceFences.lat,
      radius: deviceFences.radius,
      action: deviceFences.action,
      alarmOnEnter: deviceFences.alarmOnEnter,
      state: deviceFences.state,
      pendingOp: deviceFences.pendingOp,
      inside: deviceFenceStates.inside,
      createdAt: deviceFences.createdAt,
      createdByName: deviceFences.createdByName,
    })
    .from(deviceFences)
    .leftJoin(deviceFenceStates, eq(deviceFenceStates.fenceId, deviceFences.id))
    .where(and(f.deviceId !== undefined ? eq(deviceFences.deviceId, f.deviceId) : undefined, f.ids ? inArray(deviceFences.id, f.ids) : undefined))
    .orderBy(desc(deviceFences.id))
    .limit(f.limit);
}
export type FenceListRow = Awaited<ReturnType<typeof listFences>>[number];

/** The history of these fences, oldest first. */
export async function eventsOf(db: Executor, fenceIds: number[]) {
  if (fenceIds.length === 0) return [];
  return db
    .select({
      fenceId: deviceFenceEvents.fenceId,
      at: deviceFenceEvents.at,
      state: deviceFenceEvents.state,
      op: deviceFenceEvents.op,
      userName: deviceFenceEvents.userName,
      reason: deviceFenceEvents.reason,
      timedOut: deviceFenceEvents.timedOut,
    })
    .from(deviceFenceEvents)
    .where(inArray(deviceFenceEvents.fenceId, fenceIds))
    .orderBy(asc(deviceFenceEvents.fenceId), asc(deviceFenceEvents.id));
}
