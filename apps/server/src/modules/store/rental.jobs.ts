import type { FastifyBaseLogger } from 'fastify';

/**
 * The overdue job: at start and then every hour (so at least daily, as issue #38 asks, and a
 * rental due at 10:00 is overdue by 11:00, not the next day), active rentals past their due
 * time become overdue. Due times are instants, so midnight and time zones play no part; the
 * update is guarded, so instances running it together change each rental once.
 */
export class RentalJobs {
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly rentals: { markOverdue(now?: Date): Promise<number[]> },
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    const run = () => void this.rentals.markOverdue().catch((err) => this.log.error({ err }, 'rental overdue check failed'));
    this.timers = [setTimeout(run, 5_000), setInterval(run, 3_600_000)];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}
