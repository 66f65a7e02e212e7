import {
  ErrorCode,
  FENCE_COMMAND_TTL_MS,
  FENCE_KEPT_STATES,
  FENCE_LIMITS,
  deviceFenceId,
  type FenceAction,
  type FenceDto,
  type FenceEvent,
  type FenceList,
  type FenceOp,
  type FenceSet,
  type FenceState,
} from '@iot/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import type { EventBus } from '../../lib/events.js';
import type { CommandRow, CommandService } from '../../telemetry/commands.js';
import type { FenceCheck } from '../../telemetry/fence.check.js';
import type { AlarmService } from '../alarm/alarm.service.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import * as repo from './fence.repo.js';

const FENCE_KINDS: Record<FenceOp, 'fenceSet' | 'fenceClose' | 'fenceRelock'> = { set: 'fenceSet', close: 'fenceClose', relock: 'fenceRelock' };
const KIND_OPS = new Set<string>(Object.values(FENCE_KINDS));
const ENDED = new Set(['succeeded', 'failed', 'timeout', 'offline']);

function toDto(f: repo.FenceListRow, history: FenceEvent[]): FenceDto {
  return {
    id: f.id,
    deviceId: f.deviceId,
    fenceId: deviceFenceId(f.id),
    lng: f.lng,
    lat: f.lat,
    radius: f.radius,
    action: f.action as FenceAction,
    alarmOnEnter: f.alarmOnEnter,
    state: f.state as FenceState,
    pending: (f.pendingOp as FenceOp | null) ?? null,
    inside: f.inside ?? null,
    createdAt: f.createdAt.toISOString(),
    createdByName: f.createdByName,
    history,
  };
}

/**
 * Geo-fences issued to devices (§4 fence states, §7 setfence / setclosefence / setrefence):
 * each operator request is a command on the command channel (telemetry/commands.ts), sent at once
 * to an online device and recorded `offline` (never sent) for an offline one, as set parameters
 * are. The command's end settles the fence (`repo.settle`): on the live command event, right
 * after sending (a fast device, an offline one), and before every list (a command ended by another
 * instance, or while this one was down). Reads need a device the caller sees; changes one it
 * manages (a device only shared with it is refused).
 */
export class FenceService {
  constructor(
    private readonly db: Db,
    private readonly devices: DeviceService,
    private readonly commands: CommandService,
    private readonly check: FenceCheck,
    private readonly alarms: Pick<AlarmService, 'announce'>,
    bus: EventBus,
    private readonly log: FastifyBaseLogger,
  ) {
    // Local: the instance that ended the command settles it (a write); the others catch up on
    // their next list.
    bus.on(
      'device.command',
      (c) => {
        if (!KIND_OPS.has(c.kind) || !ENDED.has(c.status)) return;
        void this.settle({ commandIds: [c.id] }).catch((err) => this.log.error({ err, command: c.id }, 'fence not settled'));
      },
      { local: true },
    );
  }

  /** Settles what ended; a fence removed lets go of its open alarms. */
  private async settle(by: Parameters<typeof repo.settle>[1]) {
    for (const s of await repo.settle(this.db, by)) {
      if (s.state === 'removed') this.alarms.announce(await this.check.release(this.db, s));
    }
  }

  async list(ctx: AuthContext, deviceId: number): Promise<FenceList> {
    await this.devices.basic(ctx, deviceId);
    await this.settle({ deviceId });
    return { items: await this.dtos({ deviceId }) };
  }

  private async dtos(f: { deviceId?: number; ids?: number[] }): Promise<FenceDto[]> {
    const fences = await repo.listFences(this.db, { ...f, limit: FENCE_LIMITS.listed });
    const events = await repo.eventsOf(this.db, fences.map((x) => x.id));
    const byFence = new Map<number, FenceEvent[]>();
    for (const e of events) {
      const list = byFence.get(e.fenceId) ?? [];
      list.push({ at: e.at.toISOString(), state: e.state as FenceState, op: e.op as FenceOp, userName: e.userName, reason: e.reason, timedOut: e.timedOut });
      byFence.set(e.fenceId, list);
    }
    return fences.map((x) => toDto(x, byFence.get(x.id) ?? []));
  }

  private async one(id: number): Promise<FenceDto> {
    return (await this.dtos({ ids: [id] }))[0]!;
  }

  /** Sends the fence's command (or records it offline), ties it to the fence and settles what already ended. */
  private async dispatch(actor: Actor, device: { id: number; sn: string; online: boolean }, fenceId: number, op: FenceOp, payload: object) {
    let cmd: CommandRow;
    try {
      const kind = FENCE_KINDS[op];
      cmd = device.online
        ? await this.commands.send(device, kind, payload, { ttlMs: FENCE_COMMAND_TTL_MS, userId: actor.userId })
        : await this.commands.recordOffline(device, kind, payload, { userId: actor.userId });
    } catch (err) {
      await repo.unclaim(this.db, fenceId);
      throw err;
    }
    await repo.attachCommand(this.db, fenceId, cmd.id);
    await this.settle({ commandIds: [cmd.id] });
    return cmd;
  }

  async set(actor: Actor, body: Required<FenceSet>): Promise<FenceDto> {
    const device = await this.devices.manageableOne(actor, body.id);
    if ((await repo.countOpen(this.db, device.id)) >= FENCE_LIMITS.perDevice) {
      throw conflict('fenceLimit', { params: { max: FENCE_LIMITS.perDevice } });
    }
    const fence = await repo.createFence(this.db, {
      deviceId: device.id,
      lng: body.lng,
      lat: body.lat,
      radius: body.radius,
      action: body.action,
      alarmOnEnter: body.alarmOnEnter,
      userId: actor.userId,
      userName: actor.username,
    });
    const payload = { fenceId: deviceFenceId(fence.id), lng: body.lng, lat: body.lat, radius: body.radius, action: body.action };
    const cmd = await this.dispatch(actor, device, fence.id, 'set', payload);
    await audit(this.db, actor, { entityId: fence.id, name: device.sn, summary: { ...payload, alarmOnEnter: body.alarmOnEnter, command: cmd.id } });
    return this.one(fence.id);
  }

  /** The fence, on a device the caller manages; a fence on a device it cannot see does not exist. */
  private async manageable(actor: Actor, id: number) {
    const fence = await repo.fenceById(this.db, id);
    if (!fence) throw notFound('fenceNotFound');
    try {
      await this.devices.basic(actor, fence.deviceId);
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.NOT_FOUND) throw notFound('fenceNotFound');
      throw err;
    }
    return { fence, device: await this.devices.manageableOne(actor, fence.deviceId) };
  }

  /** Remove: a fenceClose command to the device keeping it; a fence it never kept is removed at once. */
  async close(actor: Actor, id: number): Promise<FenceDto> {
    const { fence, device } = await this.manageable(actor, id);
    if (fence.state === 'removed') throw conflict('fenceRemoved');
    if (fence.state === 'failed' || fence.state === 'offline') {
      if (!(await repo.removeUnsent(this.db, id, { userId: actor.userId, userName: actor.username }))) throw conflict('fenceBusy');
      await audit(this.db, actor, { entityId: id, name: device.sn, summary: { fenceId: deviceFenceId(id), sent: false } });
      return this.one(id);
    }
    if (!(await repo.claim(this.db, id, 'close', FENCE_KEPT_STATES))) throw conflict('fenceBusy');
    const cmd = await this.dispatch(actor, device, id, 'close', { fenceId: deviceFenceId(id) });
    await audit(this.db, actor, { entityId: id, name: device.sn, summary: { fenceId: deviceFenceId(id), command: cmd.id } });
    return this.one(id);
  }

  /** Re-lock: a fenceRelock command; only a fence the device keeps. */
  async relock(actor: Actor, id: number): Promise<FenceDto> {
    const { fence, device } = await this.manageable(actor, id);
    if (!FENCE_KEPT_STATES.includes(fence.state as FenceState)) {
      throw fence.pendingOp ? conflict('fenceBusy') : conflict('fenceNotKept', { params: { state: fence.state } });
    }
    if (!(await repo.claim(this.db, id, 'relock', FENCE_KEPT_STATES))) throw conflict('fenceBusy');
    const cmd = await this.dispatch(actor, device, id, 'relock', { fenceId: deviceFenceId(id) });
    await audit(this.db, actor, { entityId: id, name: device.sn, summary: { fenceId: deviceFenceId(id), command: cmd.id } });
    return this.one(id);
  }
}
