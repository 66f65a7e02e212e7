import { describe, expect, it } from 'vitest';
import type { Batch } from './ingest.repo.js';
import { PresenceTracker } from './presence.js';

const dev = { id: 7, sn: 'P-7', ownerPath: '/1/' };
const opts = { offlineAfterMs: 1000, seenWriteMs: 100 };

describe('PresenceTracker with several instances (decision 0038)', () => {
  it('follows another instance’s changes of a device it knows, unless it heard or holds it since', () => {
    const p = new PresenceTracker(opts);
    p.seen(dev, 1000, {}, true);
    // Offline elsewhere, at a time before this process last heard it: it stays online here.
    p.heard(dev.id, false, 900);
    expect(p.silent(1000 + opts.offlineAfterMs)).toEqual([dev.id]);
    p.heard(dev.id, false, 1500);
    expect(p.silent(5000)).toEqual([]);
    // Online elsewhere: known here as online since then.
    p.heard(dev.id, true, 6000);
    expect(p.silent(6500)).toEqual([]);
    expect(p.silent(7000)).toEqual([dev.id]);
    // A device this process never heard of is left to the others.
    p.heard(99, true, 6000);
    expect(p.silent(99_000)).toEqual([dev.id]);
  });

  it('a device connected here is not taken offline by another instance, and its next sweep says online', () => {
    const p = new PresenceTracker(opts);
    p.connected(dev, 1000, {});
    p.heard(dev.id, false, 2000);
    const part: Partial<Batch> = {};
    p.connectedQuiet(2000, part);
    expect(part.seen).toEqual([{ deviceId: dev.id, at: new Date(2000).toISOString(), online: true }]);
    expect(part.logs?.map((l) => l.kind)).toEqual(['online']);
    // Quiet but connected: its last-seen is written every seenWriteMs, never more often.
    const again: Partial<Batch> = {};
    p.connectedQuiet(2050, again);
    expect(again.seen).toBeUndefined();
    p.connectedQuiet(2100, again);
    expect(again.seen).toHaveLength(1);
  });

  it('silence is settled by the database: offline there already, or heard by another instance since', () => {
    const p = new PresenceTracker(opts);
    p.seen(dev, 1000, {}, true);
    p.settle(dev.id, true, 1800);
    expect(p.silent(2000)).toEqual([]);
    expect(p.silent(2800)).toEqual([dev.id]);
    p.settle(dev.id, false, 1800);
    expect(p.silent(9000)).toEqual([]);
  });
});
