import { describe, expect, it } from 'vitest';
import { Pacer } from './pacing.js';

describe('Pacer (per-device rate as a schedule)', () => {
  it('takes a burst of twice the rate at once, then one turn per interval, per device', () => {
    const pacer = new Pacer(() => 20);
    const now = 1_000_000;
    const waits = Array.from({ length: 45 }, () => pacer.pace(1, now));
    // 40 at once, then each a further 50 ms (1/20 s) later.
    expect(waits.slice(0, 40).every((w) => w === 0)).toBe(true);
    expect(waits.slice(40).map((w) => Math.round(w))).toEqual([50, 100, 150, 200, 250]);
    // Another device has its own schedule.
    expect(pacer.pace(2, now)).toBe(0);
    // A second later the device has 20 more turns' worth of room, minus what it reserved.
    expect(Math.round(pacer.pace(1, now + 1000))).toBe(0);
  });

  it('takeTurn refuses past the burst instead of reserving, and recovers with time', () => {
    const pacer = new Pacer(() => 5);
    const now = 2_000_000;
    const taken = Array.from({ length: 12 }, () => pacer.takeTurn(7, now));
    expect(taken.filter(Boolean)).toHaveLength(10);
    expect(taken.slice(10)).toEqual([false, false]);
    expect(pacer.takeTurn(7, now + 199)).toBe(false);
    expect(pacer.takeTurn(7, now + 200)).toBe(true);
  });

  it('reads the rate on every call, and complains once a minute per device', () => {
    let rate = 1;
    const pacer = new Pacer(() => rate);
    expect(pacer.pace(3, 0)).toBe(0);
    expect(pacer.pace(3, 0)).toBe(0);
    expect(pacer.pace(3, 0)).toBe(1000);
    rate = 1000;
    expect(pacer.takeTurn(4, 0)).toBe(true);
    expect(pacer.complain(3, 100_000)).toBe(true);
    expect(pacer.complain(3, 130_000)).toBe(false);
    expect(pacer.complain(3, 160_001)).toBe(true);
    expect(pacer.complain(4, 130_000)).toBe(true);
  });
});
