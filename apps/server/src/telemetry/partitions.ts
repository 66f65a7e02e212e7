import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import * as repo from './ingest.repo.js';

const DAY = 86_400_000;

export const utcDay = (ms: number) => new Date(Math.floor(ms / DAY) * DAY);

/**
 * Keeps the daily telemetry partitions: every day a message may be dated in (the accepted window
 * behind now, two days ahead) exists before it is needed; days older than the retention are
 * dropped whole (DROP TABLE, never a DELETE).
 */
export class PartitionKeeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: { retentionDays: number; behindMs: number },
  ) {}

  /** Creates the days needed around `now` and drops the expired ones; returns what it dropped. */
  async run(now = Date.now()): Promise<string[]> {
    const first = utcDay(now - Math.min(this.opts.behindMs, this.opts.retentionDays * DAY)).getTime();
    const last = utcDay(now + 2 * DAY).getTime();
    const existing = new Set(await repo.telemetryPartitions(this.db));
    // Every instance runs this at start (the leader also hourly): another one may create or
    // drop the same day at the same moment, which is no failure once the day is as wanted.
    for (let day = first; day <= last; day += DAY) {
      const name = repo.partitionName(new Date(day));
      if (existing.has(name)) continue;
      await repo.createPartition(this.db, new Date(day)).catch(async (err: unknown) => {
        if (!(await repo.telemetryPartitions(this.db)).includes(name)) throw err;
      });
    }
    const oldest = utcDay(now - this.opts.retentionDays * DAY).getTime();
    const dropped: string[] = [];
    for (const name of existing) {
      const day = repo.partitionDay(name);
      if (day && day.getTime() < oldest) {
        await repo.dropPartition(this.db, name).catch(async (err: unknown) => {
          if ((await repo.telemetryPartitions(this.db)).includes(name)) throw err;
        });
        dropped.push(name);
      }
    }
    if (dropped.length > 0) this.log.info({ dropped }, 'telemetry retention: dropped old days');
    return dropped;
  }

  /** Hourly upkeep after the first run (on the leading instance: app.ts). */
  start(): void {
    this.timer = setInterval(() => void this.run().catch((err) => this.log.error({ err }, 'partition upkeep failed')), 3_600_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
