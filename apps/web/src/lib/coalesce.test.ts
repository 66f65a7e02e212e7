import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesce } from './coalesce';

describe('coalesce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once and folds a burst into one later run', () => {
    const fn = vi.fn();
    const c = coalesce(fn, 1000);
    c.trigger();
    expect(fn).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 50; i++) c.trigger();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(999);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('never runs twice within the period however the calls are spread', () => {
    const fn = vi.fn();
    const c = coalesce(fn, 1000);
    const runs: number[] = [];
    fn.mockImplementation(() => runs.push(Date.now()));
    for (let ms = 0; ms < 10_000; ms += 70) {
      c.trigger();
      vi.advanceTimersByTime(70);
    }
    vi.advanceTimersByTime(1000);
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(runs.length).toBeGreaterThanOrEqual(10);
  });

  it('runs at once again after a quiet period, and cancel drops a pending run', () => {
    const fn = vi.fn();
    const c = coalesce(fn, 1000);
    c.trigger();
    vi.advanceTimersByTime(5000);
    c.trigger();
    expect(fn).toHaveBeenCalledTimes(2);
    c.trigger();
    c.cancel();
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
