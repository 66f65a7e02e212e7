import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.js';
import * as repo from './audit.repo.js';

const DAY = 86_400_000;
/** Rows per DELETE: each batch is a short transaction, so writers never queue behind the clean-up. */
export const PRUNE_BATCH = 5_000;

/**
 * OPERATION_LOG_RETENTION_DAYS: once a day (and a minute after start) the operation logs older
 * than the retention are deleted, a batch at a time, yielding between batches so that requests
 * and ingestion on the same database (PGlite's single connection) go on meanwhile. Several
 * instances may run it at once: a row two of them pick is deleted by one, the other skips it.
 */
export class OperationLogRetention {
  private timers: NodeJS.Timeout[] = [];
  private readonly name: string;
  private readonly prune: (db: Executor, before: Date, limit: number) => Promise<number>;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: {
      days: number;
      batch?: number;
      /** Another table's retention the same way (alarm notices): its name in the log and its batch delete. */
      table?: { name: string; prune: (db: Executor, before: Date, limit: number) => Promise<number> };
    },
  ) {
    this.name = opts.table?.name ?? 'operation log';
    this.prune = opts.table?.prune ?? repo.pruneOperationLogs;
  }

  /** Deletes every row older than the retention at `now`; answers how many. */
  async run(now = Date.now()): Promise<number> {
    const before = new Date(now - this.opts.days * DAY);
    const batch = this.opts.batch ?? PRUNE_BATCH;
    let total = 0;
    for (;;) {
      const n = await this.prune(this.db, before, batch);
      total += n;
      if (n < batch) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (total > 0) this.log.info({ deleted: total, before: before.toISOString() }, `${this.name} retention: deleted old rows`);
    return total;
  }

  start(): void {
    const run = () => void this.run().catch((err) => this.log.error({ err }, `${this.name} retention failed`));
    this.timers = [setTimeout(run, 60_000), setInterval(run, DAY)];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}
