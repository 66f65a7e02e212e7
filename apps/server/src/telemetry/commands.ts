import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AckMessage, Command, CommandStatus } from '@iot/contract';
import type { Db } from '../db/client.js';
import type { EventBus } from '../lib/events.js';
import { checkCommand } from '../lib/command-payload.js';
import * as repo from './ingest.repo.js';
import type { CommandLogEntry, CommandRow } from './ingest.repo.js';

/** A stored command, as the command service hands it out. */
export type { CommandRow };

/** Publishes a command to a connected device; false when the device is not connected. */
export type Downlink = (sn: string, command: Command) => Promise<boolean>;

/** A command id, as the device sees it. */
export const newCommandId = () => `c-${crypto.randomUUID()}`;

export const toEnvelope = (row: CommandRow): Command => ({
  id: row.id,
  kind: row.kind,
  payload: row.payload,
  expiresAt: row.expiresAt.getTime(),
});

/**
 * The command channel: one envelope for every kind (set parameters, geo-fences, firmware
 * upgrades, whitelists: packages/contract commands.ts, each payload checked before it is stored). Commands are stored first, then delivered: published at once to a device
 * connected over MQTT, on its next connection, or in the answer to an HTTP device's next uplink.
 * The device's acknowledgement ends them; an open command past its expiry times out. Each step
 * the console takes (sent, queued for a device not connected, recorded for an offline device,
 * timed out) is a device log row of kind `command`; the device's answers are `ack` rows
 * (IngestService).
 */
export class CommandService {
  private downlink: Downlink = async () => false;
  private timer: NodeJS.Timeout | undefined;
  /** Per device (SN): the deliveries of this process, one after the other (`serial`). */
  private readonly delivering = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * The broker plugin in use (embedded or external) says how to reach connected devices. Returns
   * the downlink it replaces, so a second one (the in-process demo fleet) can handle its own
   * devices and pass the others on.
   */
  setDownlink(downlink: Downlink): Downlink {
    const previous = this.downlink;
    this.downlink = downlink;
    return previous;
  }

  start(everyMs = 5000): void {
    this.timer = setInterval(() => void this.expire().catch((err) => this.log.error({ err }, 'command expiry failed')), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async send(
    device: { id: number; sn: string },
    kind: string,
    payload: unknown,
    opts: { ttlMs: number; userId?: number; id?: string },
  ): Promise<CommandRow> {
    // An unknown kind or a payload the kind's schema refuses is never stored (a 40000 naming the field).
    payload = checkCommand(kind, payload);
    const row = await repo.insertCommand(this.db, {
      // A caller may name the id beforehand (`newCommandId`) to tie it to its own row before a
      // fast device's answer can arrive.
      id: opts.id ?? newCommandId(),
      deviceId: device.id,
      kind,
      payload: payload ?? {},
      createdBy: opts.userId ?? null,
      expiresAt: new Date(Date.now() + opts.ttlMs),
    });
    const sent = await this.serial(device.sn, () => this.deliver(device.sn, [row]));
    if (sent.length === 0) {
      // Not connected here: another instance's embedded broker may hold the device (onWaiting);
      // else it waits for the device's next connection or HTTP uplink.
      this.bus.emit('device.commandsWaiting', { deviceId: device.id, sn: device.sn });
      await this.logCommands([row], 'queued');
    }
    return (await repo.commandById(this.db, row.id))!;
  }

  /**
   * A command the operator sent while the device was offline: kept in the history as `offline`
   * and never delivered (set parameters want the device's answer now, not when it comes back).
   */
  async recordOffline(device: { id: number }, kind: string, payload: unknown, opts: { userId?: number }): Promise<CommandRow> {
    payload = checkCommand(kind, payload);
    const now = new Date();
    const row = await repo.insertCommand(this.db, {
      id: newCommandId(),
      deviceId: device.id,
      kind,
      payload: payload ?? {},
      status: 'offline',
      createdBy: opts.userId ?? null,
      expiresAt: now,
      endedAt: now,
    });
    this.emit([row]);
    await this.logCommands([row], 'offline');
    return row;
  }

  /**
   * Calls `reach` for each device that another instance (or this one) stored commands for without
   * reaching it (`device.commandsWaiting`, through Redis with REDIS_URL): an embedded broker that
   * holds the device's connection delivers them. Returns the unsubscribe.
   */
  onWaiting(reach: (device: { id: number; sn: string }) => void): () => void {
    return this.bus.on('device.commandsWaiting', ({ deviceId, sn }) => reach({ id: deviceId, sn }));
  }

  /**
   * A device (re)connected over MQTT: what waits for it is published now. `again` (the device
   * subscribed to its command topic): also what it was sent before and has not answered, since a
   * command published to a connection that then dropped may never have arrived. Delivery is at
   * least once until the device answers or the command expires; the device acts on an id once.
   */
  async deliverPending(device: { id: number; sn: string }, opts: { again?: boolean } = {}): Promise<void> {
    await this.serial(device.sn, async () => {
      const now = new Date();
      const rows = await repo.pendingCommands(this.db, device.id, now, { unanswered: opts.again });
      const resend = rows.filter((r) => r.status === 'sent');
      await this.deliver(device.sn, rows.filter((r) => r.status === 'pending'));
      for (const row of resend) {
        try {
          if (await this.downlink(device.sn, toEnvelope(row))) await this.logCommands([row], 'resent');
        } catch (err) {
          this.log.warn({ err, command: row.id }, 'command not sent again');
        }
      }
    });
  }

  /**
   * Runs one device's deliveries in this process one after the other: a command being sent while
   * its device reconnects is either taken by the send, or given back before the reconnection's
   * delivery reads what is pending (never skipped by both, never published by both).
   */
  private serial<T>(sn: string, work: () => Promise<T>): Promise<T> {
    const run = (this.delivering.get(sn) ?? Promise.resolve()).then(work, work);
    const tail = run.catch(() => undefined);
    this.delivering.set(sn, tail);
    void tail.then(() => {
      if (this.delivering.get(sn) === tail) this.delivering.delete(sn);
    });
    return run;
  }

  /**
   * An HTTP device's uplink: the commands waiting for it, marked sent (they travel in the answer),
   * and those sent before that it has not answered yet: an answer lost on the way must not lose
   * its commands, so each is offered again until the device acknowledges it (`ok`, `error` or a
   * first `progress`) or it expires.
   */
  async takePending(deviceId: number): Promise<Command[]> {
    const open = await repo.pendingCommands(this.db, deviceId, new Date(), { unanswered: true });
    const pending = open.filter((r) => r.status === 'pending');
    const taken = await repo.claimCommands(this.db, pending.map((r) => r.id));
    const rows = pending.filter((r) => taken.has(r.id));
    this.emit(rows.map((r) => ({ ...r, status: 'sent' })));
    await this.logCommands(rows, 'sent', 'http');
    return open.filter((r) => r.status === 'sent' || taken.has(r.id)).map(toEnvelope);
  }

  /** The device's acknowledgement; an unknown or foreign id is ignored (returns undefined). */
  async ack(deviceId: number, ack: AckMessage): Promise<CommandRow | undefined> {
    const row = await repo.answerCommand(this.db, deviceId, ack.id, {
      status: ack.result === 'ok' ? 'succeeded' : ack.result === 'error' ? 'failed' : undefined,
      message: ack.message,
      progress: ack.result === 'ok' ? 100 : ack.progress,
    });
    if (row) this.emit([row]);
    return row;
  }

  /**
   * Ends open commands the console no longer wants (an upgrade cancelled): `failed` with `message`,
   * so a device that reconnects is not handed them again. Their answers are ignored from now on.
   */
  async withdraw(ids: string[], message: string): Promise<CommandRow[]> {
    const rows = await repo.withdrawCommands(this.db, ids, message);
    this.emit(rows);
    await this.logCommands(rows, 'withdrawn');
    return rows;
  }

  async expire(now = new Date()): Promise<CommandRow[]> {
    const rows = await repo.expireCommands(this.db, now);
    this.emit(rows);
    await this.logCommands(rows, 'timeout');
    return rows;
  }

  /**
   * Publishes what it can; returns the commands sent. Each command is taken first (marked sent
   * if still pending), so a delivery running beside this one (the device reconnecting as the
   * operator sends) cannot publish it a second time; what could not be published is given back.
   */
  private async deliver(sn: string, rows: CommandRow[]): Promise<CommandRow[]> {
    const taken = await repo.claimCommands(this.db, rows.map((r) => r.id));
    const sent: CommandRow[] = [];
    const unsent: string[] = [];
    for (const row of rows) {
      if (!taken.has(row.id)) continue;
      try {
        if (await this.downlink(sn, toEnvelope(row))) sent.push(row);
        else unsent.push(row.id);
      } catch (err) {
        unsent.push(row.id);
        this.log.warn({ err, command: row.id }, 'command not delivered; it stays pending');
      }
    }
    await repo.releaseCommands(this.db, unsent);
    this.emit(sent.map((r) => ({ ...r, status: 'sent' })));
    await this.logCommands(sent, 'sent');
    return sent;
  }

  /**
   * One device log statement for the commands of one step. The command itself is already stored
   * and delivered: a failed log write is reported, not thrown at the operator.
   */
  private async logCommands(rows: CommandRow[], event: CommandLogEntry['detail']['event'], via?: 'http') {
    if (rows.length === 0) return;
    const entries = rows.map((r) => ({ deviceId: r.deviceId, detail: { id: r.id, kind: r.kind, event, ...(via ? { via } : {}) } }));
    await repo.insertCommandLogs(this.db, entries).catch((err) => this.log.error({ err, event }, 'command log not written'));
  }

  private emit(rows: CommandRow[]) {
    for (const r of rows) {
      this.bus.emit('device.command', {
        deviceId: r.deviceId,
        id: r.id,
        kind: r.kind,
        status: r.status as CommandStatus,
        message: r.message,
        progress: r.progress,
      });
    }
  }
}
