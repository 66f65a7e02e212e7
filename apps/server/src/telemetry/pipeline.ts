import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/client.js';
import { isRetryableConflict } from '../lib/db-errors.js';
import type { EventBus } from '../lib/events.js';
import type { AlarmService } from '../modules/alarm/alarm.service.js';
import { AlarmEngine, type EngineOptions } from './alarm.engine.js';
import { CommandService } from './commands.js';
import { DeviceDirectory } from './directory.js';
import { FenceCheck } from './fence.check.js';
import { HistoryRollup } from './history.rollup.js';
import { writeBatch, type Batch } from './ingest.repo.js';
import { IngestService } from './ingest.service.js';
import { MessageDecoder } from './message.js';
import { Pacer } from './pacing.js';
import { PartitionKeeper } from './partitions.js';
import { PresenceTracker } from './presence.js';
import { BatchWriter, type WriterOptions } from './writer.js';

/**
 * The telemetry pipeline: how a value goes from a device to the browser, stage by stage, each
 * stage named where it is built below. A message passes them in this order:
 *
 *  1. transport: the embedded broker (transports/mqtt.ts), the operator's broker
 *     (transports/mqtt-external.ts) or HTTP (transports/http.ts behind POST /api/v1/ingest/:kind);
 *     each hands the message to `IngestService.uplink`, the entry of every transport.
 *  2. gate: the embedded broker reads each packet's fixed header first and closes a connection
 *     announcing a packet too large (transports/mqtt-gate.ts).
 *  3. identity: the device's SN and secret, its access revoked or not (directory.ts).
 *  4. pacing: the device's rate, as a schedule (pacing.ts).
 *  5. decode: the message parsed and each value checked against its type (message.ts, decode.ts),
 *  6. target: the sender's, or a gateway's sub-device named in `sn` (message.ts `targetOf`).
 *  7. presence: online, offline and last seen, in memory; its rows join the message's (presence.ts).
 *  8. batch writer: the rows of many messages queued, bounded, written in batches (writer.ts).
 *  9. storage: one transaction per batch (ingest.repo.ts `writeBatch`) into the daily partitions
 *     (partitions.ts); whole days rolled up for long charts later (history.rollup.ts).
 * 10. alarm stage: the types' rules evaluated inside that transaction (alarm.engine.ts), then
 *     every GPS fix checked against its device's geo-fences (fence.check.ts).
 * 11. live events: once committed, `device.values`, `device.status` and `alarms.changed` on the
 *     event bus; plugins/realtime.ts sends them to the browsers that follow the device.
 */
export interface Telemetry {
  ingest: IngestService;
  /** The way back to devices (commands.ts): transports set its downlink. */
  commands: CommandService;
  alarms: AlarmEngine;
  /** The geo-fence crossing check (beside the alarm engine in the batch's transaction). */
  fences: FenceCheck;
  partitions: PartitionKeeper;
  rollups: HistoryRollup;
  /** Partitions made for the accepted window, then this instance's timers (presence sweep, command expiry). */
  start(): Promise<void>;
  /** Timers stopped and what is queued written (SIGTERM). */
  stop(): Promise<void>;
}

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

export interface TelemetryOptions {
  ingest: IngestOptions;
  engine: EngineOptions;
  /** Days of telemetry (and its rollups) kept. */
  retentionDays: number;
  /**
   * Told how long each batch took to write, its retries included, and whether it committed
   * (the batch-time histogram of /metrics); one call per batch, never per message.
   */
  observeBatch?: (seconds: number, committed: boolean) => void;
}

/** Attempts at writing a batch that PostgreSQL rolled back for a deadlock or serialization failure. */
const WRITE_ATTEMPTS = 3;

export function createTelemetry(
  db: Db,
  bus: EventBus,
  log: FastifyBaseLogger,
  opts: TelemetryOptions,
  /** Told each committed batch's alarm changes (the live channel, the e-mails). */
  alarmService: Pick<AlarmService, 'announce'>,
): Telemetry {
  const commands = new CommandService(db, bus, log);
  // 3. identity
  const directory = new DeviceDirectory(db);
  // 4. pacing; the rate is read on every message (tests change it)
  const pacer = new Pacer(() => opts.ingest.perDeviceRate);
  // 7. presence
  const presence = new PresenceTracker(opts.ingest);
  // Another instance's change of a device this one knows (decision 0038).
  bus.on('device.status', ({ deviceId, online, at }) => presence.heard(deviceId, online, Date.parse(at)));
  // 5.–6. decode and target (acknowledgements end their commands)
  const decoder = new MessageDecoder(directory, presence, commands, opts.ingest);
  // 10. alarm stage
  const alarms = new AlarmEngine(opts.engine);
  bus.on('devicetype.changed', ({ typeId }) => alarms.invalidateRules(typeId));
  const fences = new FenceCheck();
  // Both in the batch's transaction; what each leaves to do (warning levels) runs last.
  const alarmStage = async (tx: Executor, b: Batch) => {
    const steps = [await alarms.apply(tx, b), await fences.apply(tx, b)].filter((s) => s !== undefined);
    if (steps.length === 0) return undefined;
    return async (last: Executor) => {
      for (const step of steps) await step(last);
    };
  };

  // 9. storage, with the alarm stage inside its transaction. Batches lock their devices in id
  // order, so they cannot deadlock one another; a statement elsewhere (a bulk device update)
  // still can, and PostgreSQL then rolls one side back. That batch is written again, up to three
  // times in all, instead of failing its messages.
  const write = async (batch: Batch): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        await writeBatch(db, batch, alarmStage);
        return;
      } catch (err) {
        if (attempt >= WRITE_ATTEMPTS || !isRetryableConflict(err)) throw err;
        alarms.failed(batch);
        fences.failed(batch);
        log.warn({ err, attempt, rows: batch.telemetry.length }, 'ingestion batch rolled back by a deadlock; writing it again');
      }
    }
  };
  const observe = opts.observeBatch;
  const store = !observe
    ? write
    : async (batch: Batch): Promise<void> => {
        const started = performance.now();
        let committed = false;
        try {
          await write(batch);
          committed = true;
        } finally {
          observe((performance.now() - started) / 1000, committed);
        }
      };

  // 11. live events, once a batch is committed
  const committed = (batch: Batch) => {
    for (const t of batch.telemetry) {
      bus.emit('device.values', { deviceId: t.deviceId, ts: t.ts, values: t.vals as Record<string, string | number | boolean> });
    }
    for (const s of batch.seen) {
      if (s.online !== undefined && !s.unchanged) bus.emit('device.status', { deviceId: s.deviceId, online: s.online, at: s.at });
    }
    alarmService.announce([...alarms.takeCommitted(batch), ...fences.takeCommitted(batch)]);
  };

  // 8. batch writer
  const writer = new BatchWriter(
    store,
    opts.ingest.writer,
    (err, batch) => {
      alarms.failed(batch);
      fences.failed(batch);
      presence.notStored(batch);
      log.error({ err, rows: batch.telemetry.length }, 'ingestion batch failed');
    },
    committed,
  );

  // 1. what every transport calls
  const ingest = new IngestService(db, bus, log, opts.ingest, { directory, pacer, decoder, presence, writer });

  const partitions = new PartitionKeeper(db, log, { retentionDays: opts.retentionDays, behindMs: opts.ingest.maxPastMs });
  const rollups = new HistoryRollup(db, log, { retentionDays: opts.retentionDays, lateMs: opts.ingest.maxPastMs });

  return {
    ingest,
    commands,
    alarms,
    fences,
    partitions,
    rollups,
    async start() {
      // Every day a message may be dated in exists before the first message arrives.
      // The hourly upkeep and the rollups run on the leading instance only (app.ts).
      await partitions.run();
      await ingest.start();
      commands.start();
    },
    async stop() {
      partitions.stop();
      await rollups.stop();
      commands.stop();
      // What is queued is written before the database closes (SIGTERM drains).
      await ingest.stop();
    },
  };
}
