import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  DEVICE_LIMITS,
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
import type { Db, Executor } from '../db/client.js';
import type { EventBus } from '../lib/events.js';
import { hashToken } from '../lib/tokens.js';
import { isRetryableConflict } from '../lib/db-errors.js';
import { fieldOf, findHostile } from '../lib/hostile.js';
import { stripNul, stripNulDeep } from '../lib/sql.js';
import { ArrivalClock } from './arrival.js';
import { decodeValues, deviceTime, type ParamDef } from './decode.js';
import * as repo from './ingest.repo.js';
import type { Batch, IngestDevice, LogRow } from './ingest.repo.js';

export type { IngestDevice };
import type { CommandService } from './commands.js';
import { BatchWriter, NotStoredError, type WriterOptions } from './writer.js';

export interface IngestOptions {
  /** A device silent this long is marked offline. */
  offlineAfterMs: number;
  /** last_seen_at of an online device is written at most this often. */
  seenWriteMs: number;
  /** Device times accepted: this far in the past (late data) … */
  maxPastMs: number;
  /** … and this far in the future (clock drift). */
  maxFutureMs: number;
  /**
   * Messages per device per second (bursts of twice that). Past it the embedded broker holds the
   * device's next message back until its turn (its PUBACK comes later, nothing is dropped), and
   * HTTP answers 42900; logged once a minute.
   */
  perDeviceRate: number;
  writer: WriterOptions;
}

export const DEFAULT_INGEST: IngestOptions = {
  offlineAfterMs: 5 * 60_000,
  seenWriteMs: 60_000,
  maxPastMs: 7 * 86_400_000,
  maxFutureMs: 10 * 60_000,
  perDeviceRate: 20,
  writer: { maxRows: 2000, flushMs: 50, maxQueued: 8000 },
};

/**
 * Work done with every batch (the alarm engine): `apply` runs first inside the batch's transaction,
 * then `committed` or `failed` once the transaction is over. One call per batch, or one per attempt
 * when a batch is written again after a deadlock (`failed` comes between).
 */
export interface BatchHook {
  /** What it returns runs as the transaction's last statement. */
  apply(tx: Executor, batch: Batch): Promise<((tx: Executor) => Promise<void>) | undefined>;
  committed(batch: Batch): void;
  failed(batch: Batch): void;
}

export interface UplinkOutcome {
  accepted: number;
  rejected: RejectedValue[];
}

interface Presence {
  online: boolean;
  lastSeen: number;
  lastWritten: number;
  /**
   * The per-device rate limit as a virtual schedule (GCRA): the time the device's next message is
   * due at its rate. A message may come up to a burst ahead of it.
   */
  dueAt: number;
  limitedLoggedAt: number;
  /** Open MQTT connections of the device (embedded broker, demo fleet): online while any is. */
  connections: number;
  /** The status `info` this process last wrote for the device (JSON), to write it only when it changes. */
  info?: string;
}

/** Keys of a status message's `info` that are kept (the rest are dropped). */
export const STATUS_INFO_KEYS = 32;

const CACHE_MS = 30_000;
/** Devices whose credentials and registry row are remembered (least recently used are dropped). */
const DEVICE_CACHE_MAX = 20_000;
/** A stand-in credential hash, compared for an unknown SN so its refusal costs what a known one's does. */
const NO_DEVICE_HASH = hashToken(crypto.randomBytes(32).toString('hex'));
/** Attempts at writing a batch that PostgreSQL rolled back for a deadlock or serialization failure. */
const WRITE_ATTEMPTS = 3;

/**
 * The ingestion path shared by MQTT and HTTP: authenticates devices, decodes and checks each
 * message against its type's parameter definitions, batches the rows (BatchWriter), keeps
 * online/offline and last-seen, and emits `device.values` / `device.status` once committed.
 * A bad message or value is logged in the device log with its reason and dropped alone.
 */
export class IngestService {
  private readonly writer: BatchWriter;
  /** SN → device, in least-recently-used order (a Map keeps insertion order). */
  private readonly devices = new Map<string, { device: IngestDevice | undefined; at: number }>();
  private readonly params = new Map<number, { defs: Map<string, ParamDef>; at: number }>();
  private readonly alarmIds = new Map<number, { ids: Set<string>; at: number }>();
  private readonly presence = new Map<number, Presence>();
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Devices disabled or deleted since they connected: their messages are refused. */
  private readonly revoked = new Map<number, 'deviceDisabled' | 'unknownDevice'>();
  private readonly revokeListeners: ((sns: string[]) => void)[] = [];
  private readonly offBus: () => void;
  /** Times of samples sent without `ts` (arrival.ts). */
  private readonly arrivals = new ArrivalClock();

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log: FastifyBaseLogger,
    readonly opts: IngestOptions = DEFAULT_INGEST,
    /** Acknowledgements end the commands they answer. */
    private readonly commands?: CommandService,
    /** The alarm engine (modules/alarm), called once per batch. */
    private readonly hook?: BatchHook,
  ) {
    this.writer = new BatchWriter(
      (batch) => this.write(batch),
      opts.writer,
      (err, batch) => {
        hook?.failed(batch);
        // Reported info not stored: written again with the device's next status.
        for (const r of batch.seen) {
          const p = r.info && this.presence.get(r.deviceId);
          if (p && p.info === JSON.stringify(r.info)) p.info = undefined;
        }
        log.error({ err, rows: batch.telemetry.length }, 'ingestion batch failed');
      },
      (batch) => {
        this.committed(batch);
        hook?.committed(batch);
      },
    );
    this.offBus = bus.on('device.access', ({ deviceIds, sns, why }) => {
      for (const sn of sns) this.devices.delete(sn);
      for (const id of deviceIds) {
        if (why === 'enabled') this.revoked.delete(id);
        else if (why !== 'credentials') this.revoked.set(id, why === 'deleted' ? 'unknownDevice' : 'deviceDisabled');
      }
      if (why !== 'enabled') for (const l of this.revokeListeners) l(sns);
    });
  }

  /** Called with the SNs of devices that must be disconnected (disabled, deleted, new secret). */
  /**
   * Writes a batch. Batches lock their devices in id order, so they cannot deadlock one another;
   * a statement elsewhere (a bulk device update) still can, and PostgreSQL then rolls one side back.
   * That batch is written again, up to three times in all, instead of failing its messages.
   */
  private async write(batch: Batch): Promise<void> {
    const hook = this.hook;
    for (let attempt = 1; ; attempt++) {
      try {
        await repo.writeBatch(this.db, batch, hook && ((tx, b) => hook.apply(tx, b)));
        return;
      } catch (err) {
        if (attempt >= WRITE_ATTEMPTS || !isRetryableConflict(err)) throw err;
        hook?.failed(batch);
        this.log.warn({ err, attempt, rows: batch.telemetry.length }, 'ingestion batch rolled back by a deadlock; writing it again');
      }
    }
  }

  onRevoked(listener: (sns: string[]) => void): void {
    this.revokeListeners.push(listener);
  }

  /** Loads devices still marked online and starts the silence sweep. */
  async start(): Promise<void> {
    const now = Date.now();
    for (const d of await repo.onlineDevices(this.db)) {
      this.presence.set(d.id, this.newPresence(now, true));
    }
    const every = Math.max(1000, Math.min(30_000, this.opts.offlineAfterMs / 4));
    this.sweepTimer = setInterval(() => void this.sweep().catch((err) => this.log.error({ err }, 'presence sweep failed')), every);
    this.sweepTimer.unref();
  }

  private stopped: Promise<void> | undefined;

  /** True once `stop` was called: no new message is taken. */
  get stopping(): boolean {
    return this.stopped !== undefined;
  }

  /** SIGTERM: stop taking messages and write what is queued (once, however often it is called). */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      if (this.sweepTimer) clearInterval(this.sweepTimer);
      this.offBus();
      await this.writer.drain();
    })();
    return this.stopped;
  }

  get queuedRows(): number {
    return this.writer.queued;
  }

  /** Messages waiting for room in the writer's queue. */
  get waitingMessages(): number {
    return this.writer.waiting;
  }

  /** Checks a device's credentials (MQTT CONNECT, HTTP Basic). */
  async authenticate(sn: string, secret: string): Promise<{ device: IngestDevice } | { reason: IngestReason }> {
    // An unknown SN and a wrong secret cost the same: one registry read (cached alike) and one
    // hash comparison, so the time of a refusal does not tell which SNs exist.
    const device = await this.deviceOf(sn, { fresh: true });
    const given = Buffer.from(hashToken(secret));
    const stored = Buffer.from(device?.credentialHash ?? NO_DEVICE_HASH);
    const match = given.length === stored.length && crypto.timingSafeEqual(given, stored);
    if (!device) return { reason: 'unknownDevice' };
    if (!match) return { reason: 'badCredentials' };
    // Told only to a device that knows its secret.
    if (!device.enabled) return { reason: 'deviceDisabled' };
    this.revoked.delete(device.id);
    return { device };
  }

  /** A refused connection, in the device log (unknown SNs are logged by SN). */
  async refused(sn: string, reason: IngestReason, detail: Record<string, unknown> = {}): Promise<void> {
    const device = (await this.deviceOf(sn)) ?? undefined;
    await this.writer.add({ logs: [this.logRow(device, sn, 'rejected', reason, detail)] }).catch(() => undefined);
  }

  async connected(device: IngestDevice, detail: Record<string, unknown>): Promise<void> {
    const now = Date.now();
    const p = this.presenceOf(device.id, now);
    p.connections++;
    const part: Partial<Batch> = { logs: [this.logRow(device, device.sn, 'connected', undefined, detail)] };
    this.markSeen(device, p, now, part, true);
    await this.writer.add(part);
  }

  /**
   * A connection closed. While the device has other connections (a listener on its command topic
   * while a publisher comes and goes) it is logged, but the device stays online.
   */
  async disconnected(device: IngestDevice, detail: Record<string, unknown>): Promise<void> {
    const now = Date.now();
    const p = this.presenceOf(device.id, now);
    p.connections = Math.max(0, p.connections - 1);
    const part: Partial<Batch> = { logs: [this.logRow(device, device.sn, 'disconnected', undefined, detail)] };
    if (p.online && p.connections === 0) this.goOffline(device, p, now, part, 'disconnected');
    await this.writer.add(part);
  }

  /**
   * One uplink message from a device already authenticated as `device`. Resolves when its rows
   * are committed (a QoS 1 message is acknowledged then); never rejects for the device's mistakes.
   * `onQueued` is called when its rows are in the writer's queue (after any wait for room), or when
   * it is refused before (a QoS 0 publish is let go then). `paced`: the caller already waited for
   * the device's turn (`pace`); otherwise a message over the device's rate is refused.
   */
  async uplink(
    device: IngestDevice,
    kind: string,
    payload: Buffer | string | object,
    onQueued?: () => void,
    opts: { paced?: boolean } = {},
  ): Promise<UplinkOutcome> {
    if (onQueued) onQueued = once(onQueued);
    const now = Date.now();
    const p = this.presenceOf(device.id, now);
    const revoked = device.enabled ? this.revoked.get(device.id) : 'deviceDisabled';
    if (revoked) {
      // Disabled or deleted while connected (its connection is being closed), or behind an
      // external broker that still lets it publish: refused, logged once a minute.
      if (now - p.limitedLoggedAt > 60_000) {
        p.limitedLoggedAt = now;
        await this.writer.add({ logs: [this.logRow(device, device.sn, 'rejected', revoked, { kind })] }, onQueued).catch(() => undefined);
      }
      onQueued?.();
      return { accepted: 0, rejected: [{ reason: revoked }] };
    }
    if (!opts.paced && !this.takeTurn(p, now)) {
      await this.logLimited(device, p, now, { kind }, onQueued);
      onQueued?.();
      return { accepted: 0, rejected: [{ reason: 'rateLimited' }] };
    }
    const part: Partial<Batch> = { logs: [] };
    const outcome = await this.decode(device, kind, payload, now, part);
    if (outcome.rejected.length > 0) {
      part.logs!.push(
        this.logRow(device, device.sn, 'rejected', outcome.rejected[0]!.reason, {
          kind,
          problems: outcome.rejected.slice(0, 20).map((r): RejectedValue => ({ ...r, value: truncate(r.value) })),
        }),
      );
    }
    this.markSeen(device, p, now, part, kind === 'status' ? undefined : true);
    try {
      await this.writer.add(part, onQueued);
    } catch (err) {
      // The database refused this message alone (the rest of its batch was stored): a refusal like
      // any other, answered as such (MQTT acknowledges it, since sending it again cannot help).
      if (!(err instanceof NotStoredError)) throw err;
      this.notStored(device, kind, err);
      return { accepted: 0, rejected: [{ reason: 'notStored' }] };
    }
    return outcome;
  }

  /**
   * A message the database refused when written alone (the writer split its batch to find it; the
   * others were stored): logged as rejected `notStored`, in a later batch, and answered as refused
   * (`notStored` in the HTTP answer and the MQTT reply).
   */
  private notStored(device: IngestDevice, kind: string, err: NotStoredError) {
    const row = this.logRow(device, device.sn, 'rejected', 'notStored', { kind, ...(err.sqlState ? { sqlState: err.sqlState } : {}) });
    void this.writer.add({ logs: [row] }).catch((e: unknown) => this.log.error({ err: e }, 'notStored log row not written'));
  }

  /**
   * Reserves the device's next turn at its rate and returns how long to wait for it (0: now). The
   * embedded broker waits that long before it takes the message, so a device over its rate is
   * slowed (its acknowledgements come later) instead of losing messages; logged once a minute.
   */
  pace(device: IngestDevice): number {
    const now = Date.now();
    const p = this.presenceOf(device.id, now);
    const interval = 1000 / this.opts.perDeviceRate;
    const due = Math.max(p.dueAt, now);
    const wait = Math.max(0, due - this.burstMs() - now);
    p.dueAt = due + interval;
    if (wait > 0) void this.logLimited(device, p, now, { slowedMs: Math.round(wait) }).catch(() => undefined);
    return wait;
  }

  /**
   * The device behind an SN (cached briefly; the registry is the authority). At most
   * DEVICE_CACHE_MAX SNs are remembered, unknown ones included, so a flood of made-up names
   * cannot grow memory; an SN longer than any SN can be is unknown without a query.
   */
  async deviceOf(sn: string, opts: { fresh?: boolean } = {}): Promise<IngestDevice | undefined> {
    const now = Date.now();
    const hit = this.devices.get(sn);
    if (hit && !opts.fresh && now - hit.at < CACHE_MS) {
      // Most recently used last.
      this.devices.delete(sn);
      this.devices.set(sn, hit);
      return hit.device;
    }
    // No SN holds a NUL byte (PostgreSQL text cannot) or is longer than the column.
    if (sn.includes('\u0000') || sn.length > DEVICE_LIMITS.sn) return undefined;
    const device = await repo.deviceBySn(this.db, sn);
    this.devices.delete(sn);
    this.devices.set(sn, { device, at: now });
    if (this.devices.size > DEVICE_CACHE_MAX) this.devices.delete(this.devices.keys().next().value!);
    return device;
  }

  /** Forget cached definitions (a type's parameters or a device changed). */
  invalidate(): void {
    this.devices.clear();
    this.params.clear();
    this.alarmIds.clear();
  }

  // ---- decoding ---------------------------------------------------------------------------------

  private async decode(
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
        if (!(await this.defsOf(device.typeId)).has(msg.data.id) && !(await this.alarmIdsOf(device.typeId)).has(msg.data.id)) {
          return { accepted: 0, rejected: [{ reason: 'unknownParameter', semaphoreId: msg.data.id }] };
        }
        const ts = deviceTime(msg.data.ts, now, window);
        if (!(ts instanceof Date)) return rejectTime(ts);
        part.logs!.push(this.logRow(device, device.sn, 'alarm', undefined, { ...msg.data, ts: ts.toISOString() }));
        return { accepted: 1, rejected: [] };
      }
      case 'status': {
        const msg = statusSchema.safeParse(body);
        if (!msg.success) return reject('invalidMessage', msg.error.issues[0]?.path.join('.'));
        const target = await this.targetOf(device, msg.data.sn, now, part);
        if (!('id' in target)) return { accepted: 0, rejected: [target] };
        device = target;
        const p = this.presenceOf(device.id, now);
        if (msg.data.online) this.markSeen(device, p, now, part, true);
        else if (p.online) this.goOffline(device, p, now, part, 'status');
        if (msg.data.info) {
          // Stored on the device with the batch's last-seen update, only when it changed.
          const info = Object.fromEntries(Object.entries(msg.data.info).slice(0, STATUS_INFO_KEYS));
          const json = JSON.stringify(info);
          if (json !== p.info) {
            p.info = json;
            (part.seen ??= []).push({ deviceId: device.id, at: new Date(now).toISOString(), info });
          }
        }
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
        part.logs!.push(this.logRow(device, device.sn, 'ack', undefined, msg.data));
        await this.commands?.ack(device.id, msg.data);
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
    const { accepted, rejected } = decodeValues(await this.defsOf(target.typeId), msg.data.values);
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
    const child = await this.deviceOf(sn);
    if (!child || child.parentId !== device.id) return { reason: 'notSubDevice', sn, field: 'sn' };
    if (!child.enabled || this.revoked.has(child.id)) return { reason: 'deviceDisabled', sn, field: 'sn' };
    this.markSeen(child, this.presenceOf(child.id, now), now, part, true);
    return child;
  }

  /** The semaphore ids the type's alarm rules are about (enabled or not; cached like defsOf). */
  private async alarmIdsOf(typeId: number): Promise<Set<string>> {
    const hit = this.alarmIds.get(typeId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.ids;
    const ids = new Set(await repo.typeAlarmIds(this.db, typeId));
    this.alarmIds.set(typeId, { ids, at: Date.now() });
    return ids;
  }

  private async defsOf(typeId: number): Promise<Map<string, ParamDef>> {
    const hit = this.params.get(typeId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.defs;
    const defs = new Map((await repo.typeParams(this.db, typeId)).map((p) => [p.semaphoreId, p]));
    this.params.set(typeId, { defs, at: Date.now() });
    return defs;
  }

  // ---- presence ---------------------------------------------------------------------------------

  private newPresence(now: number, online: boolean): Presence {
    return { online, lastSeen: now, lastWritten: online ? now : 0, dueAt: 0, limitedLoggedAt: 0, connections: 0 };
  }

  private presenceOf(id: number, now: number): Presence {
    let p = this.presence.get(id);
    if (!p) {
      p = this.newPresence(now, false);
      this.presence.set(id, p);
    }
    return p;
  }

  /** How far ahead of its schedule a device may send: a burst of twice its rate. */
  private burstMs(): number {
    return ((this.opts.perDeviceRate * 2 - 1) * 1000) / this.opts.perDeviceRate;
  }

  /** The device's turn now, if it is within its rate and burst (HTTP, external broker). */
  private takeTurn(p: Presence, now: number): boolean {
    const due = Math.max(p.dueAt, now);
    if (due - this.burstMs() > now) return false;
    p.dueAt = due + 1000 / this.opts.perDeviceRate;
    return true;
  }

  private async logLimited(device: IngestDevice, p: Presence, now: number, detail: Record<string, unknown>, onQueued?: () => void) {
    if (now - p.limitedLoggedAt <= 60_000) return;
    p.limitedLoggedAt = now;
    await this.writer.add({ logs: [this.logRow(device, device.sn, 'rejected', 'rateLimited', detail)] }, onQueued);
  }

  /** A message or a connection: online now, last-seen written when it is getting old. */
  private markSeen(device: IngestDevice, p: Presence, now: number, part: Partial<Batch>, online: true | undefined) {
    p.lastSeen = now;
    const at = new Date(now).toISOString();
    if (online && !p.online) {
      p.online = true;
      p.lastWritten = now;
      (part.seen ??= []).push({ deviceId: device.id, at, online: true });
      (part.logs ??= []).push(this.logRow(device, device.sn, 'online'));
    } else if (now - p.lastWritten >= this.opts.seenWriteMs) {
      p.lastWritten = now;
      (part.seen ??= []).push({ deviceId: device.id, at });
    }
  }

  private goOffline(
    device: Pick<IngestDevice, 'id' | 'sn' | 'ownerPath'>,
    p: Presence,
    now: number,
    part: Partial<Batch>,
    why: 'disconnected' | 'status' | 'silence',
  ) {
    p.online = false;
    (part.seen ??= []).push({ deviceId: device.id, at: new Date(Math.min(now, p.lastSeen)).toISOString(), online: false });
    (part.logs ??= []).push(this.logRow(device, device.sn, 'offline', undefined, { why }));
  }

  /** Devices silent past the timeout go offline (HTTP devices, external brokers, lost links). */
  async sweep(now = Date.now()): Promise<void> {
    const part: Partial<Batch> = {};
    const silent: number[] = [];
    for (const [id, p] of this.presence) {
      // A device with an open connection is online however quiet it is: the connection's MQTT
      // keepalive (or TCP) closes a dead one. Silence takes offline only devices without one
      // (HTTP devices, devices behind an external broker).
      if (p.online && p.connections === 0 && now - p.lastSeen >= this.opts.offlineAfterMs) silent.push(id);
    }
    if (silent.length === 0) return;
    const rows = await repo.devicesByIds(this.db, silent);
    for (const d of rows) this.goOffline(d, this.presence.get(d.id)!, now, part, 'silence');
    await this.writer.add(part);
  }

  // ---- after commit -----------------------------------------------------------------------------

  private committed(batch: Batch) {
    for (const t of batch.telemetry) {
      this.bus.emit('device.values', { deviceId: t.deviceId, ts: t.ts, values: t.vals as Record<string, string | number | boolean> });
    }
    for (const s of batch.seen) {
      if (s.online !== undefined) this.bus.emit('device.status', { deviceId: s.deviceId, online: s.online, at: s.at });
    }
  }

  private logRow(
    device: Pick<IngestDevice, 'id' | 'ownerPath'> | undefined,
    sn: string,
    kind: LogRow['kind'],
    reason?: IngestReason,
    detail?: Record<string, unknown>,
  ): LogRow {
    // An unknown SN comes from the network (MQTT username, topic): cut to the column's 64
    // characters so one long name cannot fail the whole batch.
    // NUL bytes (a client id, a topic) are dropped and lone surrogates replaced by U+FFFD:
    // PostgreSQL cannot store them, and one row must not fail the batch.
    return {
      deviceId: device?.id ?? null,
      // Cut first: a cut through a surrogate pair leaves half of it, which stripNul replaces.
      sn: stripNul(sn.slice(0, 64)),
      kind,
      reason,
      detail: detail && stripNulDeep(detail),
      ownerPath: device?.ownerPath ?? '',
    };
  }
}

function once(f: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    f();
  };
}

function reject(reason: IngestReason, field?: string): UplinkOutcome {
  return { accepted: 0, rejected: [{ reason, ...(field ? { field } : {}) }] };
}

/** A `ts` that cannot be read is a malformed message; a readable one outside the window is not. */
function rejectTime(problem: 'invalid' | 'outOfRange'): UplinkOutcome {
  return problem === 'invalid' ? reject('invalidMessage', 'ts') : reject('timeOutOfRange');
}

function truncate(v: unknown): unknown {
  if (typeof v === 'string' && v.length > 64) return `${v.slice(0, 64)}…`;
  if (v !== null && typeof v === 'object') return '[object]';
  return v;
}
