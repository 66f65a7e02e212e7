import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import * as repo from './rollup.repo.js';

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Keeps the ten-minute rollups the history charts read over long ranges (telemetry_rollup): every
 * whole UTC day is rolled up once it is over, in one statement for all devices, and again once
 * it is older than the window late messages may still arrive in (then it is final). Until then a
 * message arriving late for an already rolled-up day shows in short-range charts (read from the
 * messages) at once and in long-range ones after the final rollup. Rollups of days past the
 * telemetry retention are deleted.
 */
export class HistoryRollup {
  private timer: NodeJS.Timeout | undefined;
  private first: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: { retentionDays: number; lateMs: number },
  ) {}

  /** Rolls up what is due at `now`; returns the days rolled up. */
  async run(now = Date.now()): Promise<string[]> {
    const today = Math.floor(now / DAY) * DAY;
    const oldest = today - this.opts.retentionDays * DAY;
    await repo.pruneRollups(this.db, day(oldest));
    const days: string[] = [];
    for (let d = oldest; d < today; d += DAY) days.push(day(d));
    const due = await repo.daysToRoll(this.db, { days, finalBefore: day(now - this.opts.lateMs) });
    for (const d of due) await repo.rollupDay(this.db, d.day, d.final);
    if (due.length > 0) this.log.info({ days: due.length }, 'history rollups written');
    return due.map((d) => d.day);
  }

  /** First run shortly after start (not in the way of start-up), then hourly. */
  start(firstAfterMs = 30_000): void {
    const tick = () => {
      if (this.running) return;
      this.running = this.run()
        .then(() => undefined)
        .catch((err) => this.log.error({ err }, 'history rollup failed'))
        .finally(() => (this.running = undefined));
    };
    this.first = setTimeout(tick, firstAfterMs);
    this.first.unref();
    this.timer = setInterval(tick, 3_600_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.first) clearTimeout(this.first);
    if (this.timer) clearInterval(this.timer);
    this.first = this.timer = undefined;
    await this.running;
  }
}
