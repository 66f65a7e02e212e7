import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { HeavyReads } from './heavy-reads.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: unknown) => (err instanceof AppError ? { code: err.code, reason: (err.data as { reason?: string } | null)?.reason } : err),
  );

describe('HeavyReads', () => {
  it('refuses heavyReadsBusy past the overall limit once the wait is over, and runs the next read after a release', async () => {
    const heavy = new HeavyReads({ perUser: 2, total: 2, waitMs: 50 });
    const held = gate();
    const signal = new AbortController().signal;
    const running = [1, 2].map((user) => heavy.run(user, signal, () => held.opened));
    expect(await refusal(heavy.run(3, signal, async () => 'late'))).toEqual({ code: 42900, reason: 'heavyReadsBusy' });
    held.open();
    await Promise.all(running);
    expect(await heavy.run(3, signal, async () => 'now')).toBe('now');
  });

  it('answers a read whose caller left while it waited without running it', async () => {
    const heavy = new HeavyReads({ perUser: 1, total: 4, waitMs: 60_000 });
    const held = gate();
    const running = heavy.run(1, new AbortController().signal, () => held.opened);
    const caller = new AbortController();
    let ran = false;
    const waiting = heavy.run(1, caller.signal, async () => {
      ran = true;
    });
    caller.abort();
    expect(await refusal(waiting)).toMatchObject({ code: 50300 });
    expect(ran).toBe(false);
    expect(heavy.pendingOf(1)).toBe(1);
    held.open();
    await running;
    expect(heavy.pendingOf(1)).toBe(0);
  });
});
