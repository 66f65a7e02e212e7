import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/client.js';

const DAY = 86_400_000;
/** Rows per DELETE: each batch is a short transaction, so writers never queue behind the clean-up. */
export const PRUNE_BATCH = 5_000;

/**
 * A table's retention (operation logs: OPERATION_LOG_RETENTION_DAYS; alarm notices:
 * ALARM_NOTICE_RETENTION_DAYS): once a day (and a minute after start) the rows older than the
 * retention are deleted by the table's `prune`, a batch at a time, yielding between batches so
 * that requests and ingestion on the same database (PGlite's single connection) go on meanwhile.
 * Several instances may run it at once: a row two of them pick is deleted by one, the other skips it.
 */
export class Retention {
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: {
      /** The table's name in the log. */
      name: string;
      days: number;
      /** Deletes at most `limit` rows older than `before`; answers how many. */
      prune: (db: Executor, before: Date, limit: number) => Promise<number>;
      batch?: number;
    },
  ) {}

  /** Deletes every row older than the retention at `now`; answers how many. */
  async run(now = Date.now()): Promise<number> {
    const before = new Date(now - this.opts.days * DAY);
    const batch = this.opts.batch ?? PRUNE_BATCH;
    let total = 0;
    for (;;) {
      const n = await this.opts.prune(this.db, before, batch);
      total += n;
      if (n < batch) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (total > 0) this.log.info({ deleted: total, before: before.toISOString() }, `${this.opts.name} retention: deleted old rows`);
    return total;
  }

  start(): void {
    const run = () => void this.run().catch((err) => this.log.error({ err }, `${this.opts.name} retention failed`));
    this.timers = [setTimeout(run, 60_000), setInterval(run, DAY)];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}
