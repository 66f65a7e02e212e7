import { ErrorCode, refusalMessage } from '@iot/contract';
import { inHeavyScope } from '../db/client.js';
import { AppError } from './errors.js';
import { Slots } from './slots.js';

export interface HeavyReadLimits {
  /** Heavy reads one user may have running at once; as many more wait, further ones are refused. */
  perUser: number;
  /** Heavy reads running at once in the process (the heavy pool's size on PostgreSQL). */
  total: number;
  /** How long a heavy read waits for a slot before it is refused. */
  waitMs: number;
}

/** Seconds a refused caller is told to wait (`data.retryAfter`): about one heavy read's time. */
const RETRY_AFTER_S = 5;

const busy = (reason: 'heavyReadsPerUser' | 'heavyReadsBusy', params: Record<string, number> = {}) =>
  new AppError(ErrorCode.RATE_LIMITED, refusalMessage(reason, params), { reason, params, retryAfter: RETRY_AFTER_S });

/** The answer for a caller who left: nobody reads it, but the handler must end. */
const callerGone = () => new AppError(ErrorCode.TIMED_OUT, 'The caller closed the request');

/**
 * Bounds the heavy reads (routes declared `heavy` in the contract; plugins/endpoint.ts runs their
 * handlers here): per user `perUser` running and as many waiting, overall `total` running, each
 * wait at most `waitMs`; a refusal is 42900 `heavyReadsPerUser` or `heavyReadsBusy`. One user's
 * long ranges and exports then wait behind each other, not in front of everyone else's; and on
 * PostgreSQL they run on connections of their own, cancelled when the caller leaves.
 */
export class HeavyReads {
  private readonly users = new Map<number, { slots: Slots; pending: number }>();
  private readonly all: Slots;
  private waitingForAll = 0;

  constructor(readonly limits: HeavyReadLimits) {
    this.all = new Slots(limits.total);
  }

  /** Heavy reads of `userId` running or waiting (for tests and the bench: an event-free barrier). */
  pendingOf(userId: number): number {
    return this.users.get(userId)?.pending ?? 0;
  }

  async run<T>(userId: number, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    const { perUser, total, waitMs } = this.limits;
    let user = this.users.get(userId);
    if (!user) {
      user = { slots: new Slots(perUser), pending: 0 };
      this.users.set(userId, user);
    }
    if (user.pending >= 2 * perUser) throw busy('heavyReadsPerUser', { max: perUser });
    user.pending++;
    let releaseUser: (() => void) | undefined;
    let releaseAll: (() => void) | undefined;
    try {
      releaseUser = await user.slots.acquire(waitMs, signal);
      if (signal.aborted) throw callerGone();
      if (!releaseUser) throw busy('heavyReadsPerUser', { max: perUser });
      // Waiters beyond a few rounds of the slots would only time out: refused at once.
      if (this.waitingForAll >= 4 * total) throw busy('heavyReadsBusy');
      this.waitingForAll++;
      try {
        releaseAll = await this.all.acquire(waitMs, signal);
      } finally {
        this.waitingForAll--;
      }
      if (signal.aborted) throw callerGone();
      if (!releaseAll) throw busy('heavyReadsBusy');
      try {
        return await inHeavyScope(signal, fn);
      } catch (err) {
        if (signal.aborted && !(err instanceof AppError)) throw callerGone();
        throw err;
      }
    } finally {
      releaseAll?.();
      releaseUser?.();
      if (--user.pending === 0) this.users.delete(userId);
    }
  }
}
