/**
 * The time of a telemetry message or GPS fix sent without `ts`: its arrival time, strictly
 * increasing per device. A sample is identified by its device and time (docs/PROTOCOL.md §2), so
 * two messages of one device arriving in the same millisecond would otherwise be taken for one
 * sample sent twice and merged; the later one is dated a millisecond after the earlier instead.
 * Within the device rate (20 messages a second by default, bursts of 40) this moves no time by
 * more than a few milliseconds. One entry per device that sent a message without `ts`.
 */
export class ArrivalClock {
  private readonly last = new Map<number, number>();

  next(deviceId: number, now: number): Date {
    const prev = this.last.get(deviceId);
    const ms = prev !== undefined && prev >= now ? prev + 1 : now;
    this.last.set(deviceId, ms);
    return new Date(ms);
  }
}
