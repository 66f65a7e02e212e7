/**
 * The per-device rate limit as a schedule (GCRA): each device has the time its next message is
 * due at its rate, and a message may come up to a burst (twice the rate) ahead of it. The embedded
 * broker reserves the device's turn and waits for it (`pace`), so a device over its rate is
 * slowed, its acknowledgements coming later; HTTP and the external broker's client take a turn
 * only if one is free now (`takeTurn`). `rate` is read on every call (tests change it).
 */
export class Pacer {
  private readonly dueAt = new Map<number, number>();
  private readonly loggedAt = new Map<number, number>();

  constructor(private readonly rate: () => number) {}

  /** Reserves the device's next turn and returns how long to wait for it (0: now). */
  pace(deviceId: number, now: number): number {
    const rate = this.rate();
    const due = Math.max(this.dueAt.get(deviceId) ?? 0, now);
    this.dueAt.set(deviceId, due + 1000 / rate);
    return Math.max(0, due - burstMs(rate) - now);
  }

  /** The device's turn now, if it is within its rate and burst. */
  takeTurn(deviceId: number, now: number): boolean {
    const rate = this.rate();
    const due = Math.max(this.dueAt.get(deviceId) ?? 0, now);
    if (due - burstMs(rate) > now) return false;
    this.dueAt.set(deviceId, due + 1000 / rate);
    return true;
  }

  /** Whether a complaint about the device (over its rate, refused) is due: once a minute. */
  complain(deviceId: number, now: number): boolean {
    if (now - (this.loggedAt.get(deviceId) ?? 0) <= 60_000) return false;
    this.loggedAt.set(deviceId, now);
    return true;
  }
}

/** How far ahead of its schedule a device may send: a burst of twice its rate. */
function burstMs(rate: number): number {
  return ((rate * 2 - 1) * 1000) / rate;
}
