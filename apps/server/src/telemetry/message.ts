import {
  UPLINK_KINDS,
  ackSchema,
  deviceAlarmSchema,
  gpsSchema,
  statusSchema,
  telemetrySchema,
  timeRequestSchema,
  TELEMETRY_BATCH_MAX,
  type IngestReason,
  type RejectedValue,
  type UplinkKind,
} from '@iot/contract';
import { fieldOf, findHostile } from '../lib/hostile.js';
import { ArrivalClock } from './arrival.js';
import type { CommandService } from './commands.js';
import { decodeValues, deviceTime } from './decode.js';
import type { DeviceDirectory } from './directory.js';
import type { Batch, IngestDevice } from './ingest.repo.js';
import type { PresenceTracker } from './presence.js';
import { logRow } from './rows.js';

export interface UplinkOutcome {
  accepted: number;
  rejected: RejectedValue[];
}

/** Keys of a status message's `info` that are kept (the rest are dropped). */
export const STATUS_INFO_KEYS = 32;

/**
 * One uplink message into rows (pipeline.ts, stages "decode" and "target"): parsed, each value
 * checked against its type's definitions (decode.ts), its target found (the sender, or a
 * gateway's sub-device: `targetOf`), its rows added to the message's part of the batch. Presence
 * changes of a status message and acknowledgements of commands are applied here too.
 */
export class MessageDecoder {
  /** Times of samples sent without `ts` (arrival.ts). */
  private readonly arrivals = new ArrivalClock();

  constructor(
    private readonly directory: DeviceDirectory,
    private readonly presence: PresenceTracker,
    /** Acknowledgements end the commands they answer. */
    private readonly commands: CommandService,
    /** The accepted window of device times (read on every message). */
    private readonly opts: { maxPastMs: number; maxFutureMs: number },
  ) {}

  async decode(
    device: IngestDevice,
    kind: string,
    payload: Buffer | string | object,
    now: number,
    part: Partial<Batch>,
  ): Promise<UplinkOutcome> {
    if (!(UPLINK_KINDS as readonly string[]).includes(kind)) return reject('unknownKind');
    let body: unknown = payload;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      try {
        body = JSON.parse(payload.toString());
      } catch {
        return reject('malformedJson');
      }
    }
    // A NUL byte or a lone surrogate in any key or string (PostgreSQL text and jsonb cannot hold
    // them: one would fail the whole batch) or absurd nesting: the message is refused.
    const hostile = findHostile(body);
    if (hostile) return reject('invalidMessage', fieldOf(hostile.path) || undefined);
    const window = { maxPastMs: this.opts.maxPastMs, maxFutureMs: this.opts.maxFutureMs };
    switch (kind as UplinkKind) {
      case 'telemetry': {
        // One sample, or a batch of samples (a backlog), each checked alone: a bad sample is
        // refused with its index, the others are stored.
        if (!Array.isArray(body)) return this.sample(device, body, undefined, now, part);
        if (body.length === 0 || body.length > TELEMETRY_BATCH_MAX) return reject('invalidMessage');
        const outcome: UplinkOutcome = { accepted: 0, rejected: [] };
        for (let i = 0; i < body.length; i++) {
          const one = await this.sample(device, body[i], i, now, part);
          outcome.accepted += one.accepted;
          outcome.rejected.push(...one.rejected);
        }
        return outcome;
      }
      case 'gps': {
        const msg = gpsSchema.safeParse(body);
        if (!msg.success) return reject('invalidMessage', msg.error.issues[0]?.path.join('.'));
        const target = await this.targetOf(device, msg.data.sn, now, part);
        if (!('id' in target)) return { accepted: 0, rejected: [target] };
        const ts = msg.data.ts === undefined ? this.arrivals.next(target.id, now) : deviceTime(msg.data.ts, now, window);
        if (!(ts instanceof Date)) return rejectTime(ts);
        const { ts: _t, sn: _sn, ...fix } = msg.data;
        (part.positions ??= []).push({ deviceId: target.id, ts: ts.toISOString(), ...fix });
        return { accepted: 1, rejected: [] };
      }
      case 'alarm': {
        // Recorded in the device log; the alarm engine turns them into alarm records.
        const msg = deviceAlarmSchema.safeParse(body);
        if (!msg.success) return reject('invalidMessage', msg.error.issues[0]?.path.join('.'));
        const target = await this.targetOf(device, msg.data.sn, now, part);
        if (!('id' in target)) return { accepted: 0, rejected: [target] };
        device = target;
        // An alarm about something the type does not define (neither a parameter nor an alarm
        // rule's id) names nothing the console can show or act on.
        if (!(await this.directory.defsOf(device.typeId)).has(msg.data.id) && !(await this.directory.alarmIdsOf(device.typeId)).has(msg.data.id)) {
          return { accepted: 0, rejected: [{ reason: 'unknownParameter', semaphoreId: msg.data.id }] };
        }
        const ts = deviceTime(msg.data.ts, now, window);
        if (!(ts instanceof Date)) return rejectTime(ts);
        part.logs!.push(logRow(device, device.sn, 'alarm', undefined, { ...msg.data, ts: ts.toISOString() }));
        return { accepted: 1, rejected: [] };
      }
      case 'status': {
        const msg = statusSchema.safeParse(body);
        if (!msg.success) return reject('invalidMessage', msg.error.issues[0]?.path.join('.'));
        const target = await this.targetOf(device, msg.data.sn, now, part);
        if (!('id' in target)) return { accepted: 0, rejected: [target] };
        device = target;
        if (msg.data.online) this.presence.seen(device, now, part, true);
        else this.presence.saysOffline(device, now, part);
        if (msg.data.info) this.presence.reported(device, now, part, Object.fromEntries(Object.entries(msg.data.info).slice(0, STATUS_INFO_KEYS)));
        return { accepted: 1, rejected: [] };
      }
      case 'time': {
        // Answered by the transport (MQTT reply topic, HTTP answer); nothing is stored.
        const msg = timeRequestSchema.safeParse(body);
        if (!msg.success) return reject('invalidMessage', msg.error.issues[0]?.path.join('.'));
        return { accepted: 1, rejected: [] };
      }
      case 'ack': {
        const msg = ackSchema.safeParse(body);
        if (!msg.success) return reject('invalidMessage', msg.error.issues[0]?.path.join('.'));
        part.logs!.push(logRow(device, device.sn, 'ack', undefined, msg.data));
        await this.commands.ack(device.id, msg.data);
        return { accepted: 1, rejected: [] };
      }
    }
  }

  /** One telemetry sample of a message (`index`: its place in a batch). */
  private async sample(device: IngestDevice, body: unknown, index: number | undefined, now: number, part: Partial<Batch>): Promise<UplinkOutcome> {
    const at = index === undefined ? {} : { sample: index };
    const msg = telemetrySchema.safeParse(body);
    if (!msg.success) return { accepted: 0, rejected: reject('invalidMessage', msg.error.issues[0]?.path.join('.')).rejected.map((r) => ({ ...r, ...at })) };
    const target = await this.targetOf(device, msg.data.sn, now, part);
    if (!('id' in target)) return { accepted: 0, rejected: [{ ...target, ...at }] };
    const window = { maxPastMs: this.opts.maxPastMs, maxFutureMs: this.opts.maxFutureMs };
    const ts = msg.data.ts === undefined ? this.arrivals.next(target.id, now) : deviceTime(msg.data.ts, now, window);
    if (!(ts instanceof Date)) return { accepted: 0, rejected: rejectTime(ts).rejected.map((r) => ({ ...r, ...at })) };
    const { accepted, rejected } = decodeValues(await this.directory.defsOf(target.typeId), msg.data.values);
    const count = Object.keys(accepted).length;
    if (count > 0) (part.telemetry ??= []).push({ deviceId: target.id, ts: ts.toISOString(), vals: accepted });
    const child = target.id !== device.id ? { sn: target.sn } : {};
    return { accepted: count, rejected: index === undefined && !child.sn ? rejected : rejected.map((r) => ({ ...r, ...at, ...child })) };
  }

  /**
   * Whose a message is: the sender's, or (a gateway's message naming `sn`) one of the sender's
   * registered sub-devices, which is then seen (online) as if it had sent it. Any other SN is
   * refused as notSubDevice; a disabled sub-device as deviceDisabled.
   */
  private async targetOf(
    device: IngestDevice,
    sn: string | undefined,
    now: number,
    part: Partial<Batch>,
  ): Promise<IngestDevice | RejectedValue> {
    if (sn === undefined || sn === device.sn) return device;
    const child = await this.directory.deviceOf(sn);
    if (!child || child.parentId !== device.id) return { reason: 'notSubDevice', sn, field: 'sn' };
    if (!this.directory.isUsable(child)) return { reason: 'deviceDisabled', sn, field: 'sn' };
    this.presence.seen(child, now, part, true);
    return child;
  }
}

function reject(reason: IngestReason, field?: string): UplinkOutcome {
  return { accepted: 0, rejected: [{ reason, ...(field ? { field } : {}) }] };
}

/** A `ts` that cannot be read is a malformed message; a readable one outside the window is not. */
function rejectTime(problem: 'invalid' | 'outOfRange'): UplinkOutcome {
  return problem === 'invalid' ? reject('invalidMessage', 'ts') : reject('timeOutOfRange');
}
