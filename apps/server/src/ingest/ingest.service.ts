import type { FastifyBaseLogger } from 'fastify';
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
import type { Db, Executor } from '../db/client.js';
import type { EventBus } from '../lib/events.js';
import { isRetryableConflict } from '../lib/db-errors.js';
import { fieldOf, findHostile } from '../lib/hostile.js';
import { ArrivalClock } from './arrival.js';
import { decodeValues, deviceTime } from './decode.js';
import { DeviceDirectory } from './directory.js';
import * as repo from './ingest.repo.js';
import type { Batch, IngestDevice } from './ingest.repo.js';
import { Pacer } from './pacing.js';
import { PresenceTracker } from './presence.js';
import { logRow } from './rows.js';

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

/** Keys of a status message's `info` that are kept (the rest are dropped). */
export const STATUS_INFO_KEYS = 32;

/** Attempts at writing a batch that PostgreSQL rolled back for a deadlock or serialization failure. */
const WRITE_ATTEMPTS = 3;

/**
 * The ingestion path shared by MQTT and HTTP, top to bottom in `uplink`: the device's access
 * (DeviceDirectory), its rate (Pacer), the message decoded and each value checked against its
 * type's definitions (`decode`, decode.ts), whose it is (a gateway's sub-device: `targetOf`), its
 * presence (PresenceTracker), then its rows batched (BatchWriter) and written in one transaction
 * with the alarm engine (`write`, ingest.repo.ts writeBatch); `device.values` / `device.status`
 * are emitted once committed. A bad message or value is logged in the device log with its reason
 * and dropped alone.
 */
export class IngestService {
  private readonly writer: BatchWriter;
  private readonly directory: DeviceDirectory;
  private readonly pacer: Pacer;
  private readonly presence: PresenceTracker;
  private sweepTimer: NodeJS.Timeout | undefined;
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
    this.directory = new DeviceDirectory(db);
    this.pacer = new Pacer(() => this.opts.perDeviceRate);
    this.presence = new PresenceTracker(opts);
    this.writer = new BatchWriter(
      (batch) => this.write(batch),
      opts.writer,
      (err, batch) => {
        hook?.failed(batch);
        this.presence.notStored(batch);
        log.error({ err, rows: batch.telemetry.length }, 'ingestion batch failed');
      },
      (batch) => {
        this.committed(batch);
        hook?.committed(batch);
      },
    );
    this.offBus = bus.on('device.access', ({ deviceIds, sns, why }) => {
      this.directory.accessChanged(deviceIds, sns, why);
      if (why !== 'enabled') for (const l of this.revokeListeners) l(sns);
    });
  }

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

  /** Called with the SNs of devices that must be disconnected (disabled, deleted, new secret). */
  onRevoked(listener: (sns: string[]) => void): void {
    this.revokeListeners.push(listener);
  }

  /** Loads devices still marked online and starts the silence sweep. */
  async start(): Promise<void> {
    this.presence.load((await repo.onlineDevices(this.db)).map((d) => d.id), Date.now());
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
  authenticate(sn: string, secret: string): Promise<{ device: IngestDevice } | { reason: IngestReason }> {
    return this.directory.authenticate(sn, secret);
  }

  /** A refused connection, in the device log (unknown SNs are logged by SN). */
  async refused(sn: string, reason: IngestReason, detail: Record<string, unknown> = {}): Promise<void> {
    const device = (await this.deviceOf(sn)) ?? undefined;
    await this.writer.add({ logs: [logRow(device, sn, 'rejected', reason, detail)] }).catch(() => undefined);
  }

  async connected(device: IngestDevice, detail: Record<string, unknown>): Promise<void> {
    const part: Partial<Batch> = { logs: [logRow(device, device.sn, 'connected', undefined, detail)] };
    this.presence.connected(device, Date.now(), part);
    await this.writer.add(part);
  }

  /**
   * A connection closed. While the device has other connections (a listener on its command topic
   * while a publisher comes and goes) it is logged, but the device stays online.
   */
  async disconnected(device: IngestDevice, detail: Record<string, unknown>): Promise<void> {
    const part: Partial<Batch> = { logs: [logRow(device, device.sn, 'disconnected', undefined, detail)] };
    this.presence.disconnected(device, Date.now(), part);
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
    const revoked = this.directory.revokedReason(device);
    if (revoked) {
      // Disabled or deleted while connected (its connection is being closed), or behind an
      // external broker that still lets it publish: refused, logged once a minute.
      if (this.pacer.complain(device.id, now)) {
        await this.writer.add({ logs: [logRow(device, device.sn, 'rejected', revoked, { kind })] }, onQueued).catch(() => undefined);
      }
      onQueued?.();
      return { accepted: 0, rejected: [{ reason: revoked }] };
    }
    if (!opts.paced && !this.pacer.takeTurn(device.id, now)) {
      await this.logLimited(device, now, { kind }, onQueued);
      onQueued?.();
      return { accepted: 0, rejected: [{ reason: 'rateLimited' }] };
    }
    const part: Partial<Batch> = { logs: [] };
    const outcome = await this.decode(device, kind, payload, now, part);
    if (outcome.rejected.length > 0) {
      part.logs!.push(
        logRow(device, device.sn, 'rejected', outcome.rejected[0]!.reason, {
          kind,
          problems: outcome.rejected.slice(0, 20).map((r): RejectedValue => ({ ...r, value: truncate(r.value) })),
        }),
      );
    }
    this.presence.seen(device, now, part, kind === 'status' ? undefined : true);
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
    const row = logRow(device, device.sn, 'rejected', 'notStored', { kind, ...(err.sqlState ? { sqlState: err.sqlState } : {}) });
    void this.writer.add({ logs: [row] }).catch((e: unknown) => this.log.error({ err: e }, 'notStored log row not written'));
  }

  /**
   * Reserves the device's next turn at its rate and returns how long to wait for it (0: now). The
   * embedded broker waits that long before it takes the message, so a device over its rate is
   * slowed (its acknowledgements come later) instead of losing messages; logged once a minute.
   */
  pace(device: IngestDevice): number {
    const now = Date.now();
    const wait = this.pacer.pace(device.id, now);
    if (wait > 0) void this.logLimited(device, now, { slowedMs: Math.round(wait) }).catch(() => undefined);
    return wait;
  }

  /** Over its rate: logged once a minute. */
  private async logLimited(device: IngestDevice, now: number, detail: Record<string, unknown>, onQueued?: () => void) {
    if (!this.pacer.complain(device.id, now)) return;
    await this.writer.add({ logs: [logRow(device, device.sn, 'rejected', 'rateLimited', detail)] }, onQueued);
  }

  /** The device behind an SN (cached briefly; the registry is the authority). */
  deviceOf(sn: string): Promise<IngestDevice | undefined> {
    return this.directory.deviceOf(sn);
  }

  /** Forget cached definitions (a type's parameters or a device changed). */
  invalidate(): void {
    this.directory.invalidate();
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

  /** Devices silent past the timeout go offline (HTTP devices, external brokers, lost links). */
  async sweep(now = Date.now()): Promise<void> {
    const silent = this.presence.silent(now);
    if (silent.length === 0) return;
    const part: Partial<Batch> = {};
    this.presence.silenced(await repo.devicesByIds(this.db, silent), now, part);
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
