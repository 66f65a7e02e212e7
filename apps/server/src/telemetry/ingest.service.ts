import type { FastifyBaseLogger } from 'fastify';
import type { DeviceLogKind, IngestReason, RejectedValue } from '@iot/contract';
import type { Db } from '../db/client.js';
import type { EventBus } from '../lib/events.js';
import type { DeviceDirectory } from './directory.js';
import * as repo from './ingest.repo.js';
import type { Batch, IngestDevice } from './ingest.repo.js';
import type { MessageDecoder, UplinkOutcome } from './message.js';
import type { Pacer } from './pacing.js';
import type { PresenceTracker } from './presence.js';
import { logRow } from './rows.js';
import type { IngestOptions } from './pipeline.js';
import { NotStoredError, type BatchWriter } from './writer.js';

export type { IngestDevice, UplinkOutcome };

/** The stages IngestService runs a message through (built in pipeline.ts). */
export interface IngestParts {
  directory: DeviceDirectory;
  pacer: Pacer;
  decoder: MessageDecoder;
  presence: PresenceTracker;
  writer: BatchWriter;
}

/** The way a message came in, for the ingestion counters (a bounded set: a metrics label). */
export type IngestTransport = 'mqtt' | 'mqtt-external' | 'http' | 'demo' | 'internal';

/**
 * Messages taken per transport since start: plain numbers bumped on the message path (no
 * allocation, no hashing) and read by /metrics only when it is scraped (plugins/metrics.ts).
 * A message counts as accepted when it stored anything (values refused inside it are in the
 * device log), otherwise as refused under its first reason (IngestReason: a bounded set), or
 * `writeFailed` when its batch could not be written.
 */
export class IngestCounts {
  readonly accepted = new Map<IngestTransport, number>();
  readonly refused = new Map<IngestTransport, Map<string, number>>();

  count(via: IngestTransport, outcome: UplinkOutcome): void {
    const reason = outcome.accepted === 0 ? outcome.rejected[0]?.reason : undefined;
    if (reason === undefined) this.accepted.set(via, (this.accepted.get(via) ?? 0) + 1);
    else this.refuse(via, reason);
  }

  failed(via: IngestTransport): void {
    this.refuse(via, 'writeFailed');
  }

  private refuse(via: IngestTransport, reason: string) {
    let byReason = this.refused.get(via);
    if (!byReason) this.refused.set(via, (byReason = new Map()));
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
}

/**
 * The entry of every transport (MQTT, HTTP, the demo fleet), top to bottom in `uplink`: the
 * device's access (DeviceDirectory), its rate (Pacer), the message decoded and its target found
 * (MessageDecoder), its presence (PresenceTracker), then its rows queued (BatchWriter). What
 * happens to a batch after that is composed in pipeline.ts. A bad message or value is logged in
 * the device log with its reason and dropped alone. Also: connections, refusals and the sweep of
 * silent devices.
 */
export class IngestService {
  private readonly directory: DeviceDirectory;
  private readonly pacer: Pacer;
  private readonly decoder: MessageDecoder;
  private readonly presence: PresenceTracker;
  private readonly writer: BatchWriter;
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly revokeListeners: ((sns: string[]) => void)[] = [];
  private readonly offBus: () => void;
  /** Messages accepted and refused per transport (read at scrape time by /metrics). */
  readonly counts = new IngestCounts();

  constructor(
    private readonly db: Db,
    bus: EventBus,
    private readonly log: FastifyBaseLogger,
    /** Shared with the parts, which read it on every call (tests change the rate). */
    readonly opts: IngestOptions,
    parts: IngestParts,
  ) {
    this.directory = parts.directory;
    this.pacer = parts.pacer;
    this.decoder = parts.decoder;
    this.presence = parts.presence;
    this.writer = parts.writer;
    this.offBus = bus.on('device.access', ({ deviceIds, sns, why }) => {
      this.directory.accessChanged(deviceIds, sns, why);
      if (why !== 'enabled') for (const l of this.revokeListeners) l(sns);
    });
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

  /** A device log row of what a device did outside its messages (an HTTP firmware download). */
  async note(device: IngestDevice, kind: DeviceLogKind, detail: Record<string, unknown>): Promise<void> {
    await this.writer.add({ logs: [logRow(device, device.sn, kind, undefined, detail)] });
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
   * the device's turn (`pace`); otherwise a message over the device's rate is refused. `via`
   * names the transport in the ingestion counters.
   */
  async uplink(
    device: IngestDevice,
    kind: string,
    payload: Buffer | string | object,
    onQueued?: () => void,
    opts: { paced?: boolean; via?: IngestTransport } = {},
  ): Promise<UplinkOutcome> {
    const via = opts.via ?? 'internal';
    try {
      const outcome = await this.take(device, kind, payload, onQueued, opts.paced === true);
      this.counts.count(via, outcome);
      return outcome;
    } catch (err) {
      // Its batch failed (the database unreachable, shutting down): the transport answers it as
      // not stored, and the counters show it apart from the device's own mistakes.
      this.counts.failed(via);
      throw err;
    }
  }

  private async take(
    device: IngestDevice,
    kind: string,
    payload: Buffer | string | object,
    onQueued: (() => void) | undefined,
    paced: boolean,
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
    if (!paced && !this.pacer.takeTurn(device.id, now)) {
      await this.logLimited(device, now, { kind }, onQueued);
      onQueued?.();
      return { accepted: 0, rejected: [{ reason: 'rateLimited' }] };
    }
    const part: Partial<Batch> = { logs: [] };
    const outcome = await this.decoder.decode(device, kind, payload, now, part);
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

  /**
   * Devices silent past the timeout go offline (HTTP devices, external brokers, lost links); the
   * database is asked first, since another instance may have heard them or taken them offline
   * (decision 0038). Quiet connected devices get their last-seen written.
   */
  async sweep(now = Date.now()): Promise<void> {
    const part: Partial<Batch> = {};
    this.presence.connectedQuiet(now, part);
    const silent = this.presence.silent(now);
    if (silent.length > 0) {
      const quiet = new Set<number>();
      for (const p of await repo.presenceOf(this.db, silent)) {
        const seen = p.lastSeen === null ? 0 : new Date(p.lastSeen).getTime();
        this.presence.settle(p.id, p.online, seen);
        if (p.online && now - seen >= this.opts.offlineAfterMs) quiet.add(p.id);
      }
      this.presence.silenced(await repo.devicesByIds(this.db, [...quiet]), now, part);
    }
    if (part.seen || part.logs) await this.writer.add(part);
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

function truncate(v: unknown): unknown {
  if (typeof v === 'string' && v.length > 64) return `${v.slice(0, 64)}…`;
  if (v !== null && typeof v === 'object') return '[object]';
  return v;
}
