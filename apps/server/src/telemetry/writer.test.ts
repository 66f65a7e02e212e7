import { describe, expect, it } from 'vitest';
import type { Batch, TelemetryRow } from './ingest.repo.js';
import { BatchWriter, NotStoredError } from './writer.js';

/**
 * The writer's splitting, with a fake write function: it fails with a data error (SQLSTATE class
 * 22, wrapped as Drizzle wraps the driver's error) whenever a batch holds a row marked bad, as
 * PostgreSQL fails a whole statement for one string jsonb refuses.
 */
const row = (deviceId: number, n: number, bad = false): TelemetryRow => ({
  deviceId,
  ts: new Date(1_800_000_000_000 + n).toISOString(),
  vals: { n, ...(bad ? { bad: true } : {}) },
});
const dataError = () => Object.assign(new Error('Failed query'), { cause: Object.assign(new Error('invalid input syntax for type json'), { code: '22P02' }) });
const ids = (b: Batch) => b.telemetry.map((t) => t.vals.n as number);

function fakeDb(fail: (b: Batch) => unknown | undefined = (b) => (b.telemetry.some((t) => t.vals.bad) ? dataError() : undefined)) {
  const attempts: number[][] = [];
  const committed: number[][] = [];
  const failed: number[][] = [];
  const stored: number[] = [];
  const writer = new BatchWriter(
    async (b) => {
      attempts.push(ids(b));
      await new Promise((r) => setTimeout(r, 1));
      const err = fail(b);
      if (err) throw err;
      stored.push(...ids(b));
    },
    { maxRows: 1000, flushMs: 5, maxQueued: 10_000 },
    (_err, b) => failed.push(ids(b)),
    (b) => committed.push(ids(b)),
  );
  return { writer, attempts, committed, failed, stored };
}

const settle = (p: Promise<void>) => p.then(() => 'stored' as const, (e: unknown) => e);

describe('the batch writer splits a batch the database refuses for its data', () => {
  it('bisects down to the bad message: every other message is stored and resolved, only the bad one is rejected; other failures are not split', async () => {
    const db = fakeDb();
    const results = Array.from({ length: 8 }, (_, i) => settle(db.writer.add({ telemetry: [row(i, i, i === 5)] })));
    await db.writer.flush();
    const outcome = await Promise.all(results);
    expect(outcome.filter((o) => o === 'stored')).toHaveLength(7);
    expect(outcome[5]).toBeInstanceOf(NotStoredError);
    expect((outcome[5] as NotStoredError).sqlState).toBe('22P02');
    expect(db.stored.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 6, 7]);
    // The whole batch, then halves of the failing half, down to the bad message alone.
    expect(db.attempts).toEqual([[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3], [4, 5, 6, 7], [4, 5], [4], [5], [6, 7]]);
    // onError for each failed (sub)batch, onCommit for each committed one, in order.
    expect(db.failed).toEqual([[0, 1, 2, 3, 4, 5, 6, 7], [4, 5, 6, 7], [4, 5], [5]]);
    expect(db.committed).toEqual([[0, 1, 2, 3], [4], [6, 7]]);
    expect(db.writer.queued).toBe(0);

    // Other failures (the database down) fail the batch as a whole, written once: halving it would
    // only fail more often.
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const dbDown = fakeDb(() => down);
    const downResults = Array.from({ length: 4 }, (_, i) => settle(dbDown.writer.add({ telemetry: [row(i, i)] })));
    await dbDown.writer.flush();
    expect(await Promise.all(downResults)).toEqual([down, down, down, down]);
    expect(dbDown.attempts).toHaveLength(1);
    expect(dbDown.failed).toEqual([[0, 1, 2, 3]]);
    // Nor a SQLSTATE of another class (57P01: the server shutting down).
    const db2 = fakeDb(() => Object.assign(new Error('terminating connection'), { code: '57P01' }));
    const r2 = [settle(db2.writer.add({ telemetry: [row(1, 1)] })), settle(db2.writer.add({ telemetry: [row(2, 2)] }))];
    await db2.writer.flush();
    expect((await Promise.all(r2)).every((o) => o instanceof Error && !(o instanceof NotStoredError))).toBe(true);
    expect(db2.attempts).toHaveLength(1);
  });

  it('isolates several bad messages, and a message with several rows stays whole', async () => {
    const db = fakeDb();
    const parts = [
      { telemetry: [row(1, 0), row(1, 1)] },
      { telemetry: [row(2, 2), row(2, 3, true)] },
      { telemetry: [row(3, 4)] },
      { telemetry: [row(4, 5, true)] },
      { telemetry: [row(5, 6)], logs: [{ deviceId: 5, sn: 'S5', kind: 'online' as const, ownerPath: '' }] },
    ];
    const results = parts.map((p) => settle(db.writer.add(p)));
    await db.writer.flush();
    const outcome = await Promise.all(results);
    expect(outcome.map((o) => (o === 'stored' ? o : (o as Error).name))).toEqual(['stored', 'NotStoredError', 'stored', 'NotStoredError', 'stored']);
    expect(db.stored.sort((a, b) => a - b)).toEqual([0, 1, 4, 6]);
  });

  it('completes concurrent batches in order even while one is being split', async () => {
    const order: string[] = [];
    const writer = new BatchWriter(
      async (b) => {
        // The first batch is slow and holds a bad message; the second is quick.
        await new Promise((r) => setTimeout(r, ids(b).some((n) => n < 10) ? 20 : 1));
        if (b.telemetry.some((t) => t.vals.bad)) throw dataError();
        order.push(`wrote ${ids(b).join(',')}`);
      },
      { maxRows: 1000, flushMs: 5, maxQueued: 10_000, concurrency: 2 },
      () => {},
      (b) => order.push(`commit ${ids(b).join(',')}`),
    );
    const first = [0, 1, 2].map((i) => settle(writer.add({ telemetry: [row(i, i, i === 1)] }).then(() => void order.push(`resolve ${i}`))));
    void writer.flush();
    const second = [10, 11].map((i) => settle(writer.add({ telemetry: [row(i, i)] }).then(() => void order.push(`resolve ${i}`))));
    await writer.flush();
    await Promise.all([...first, ...second]);
    // The second batch was written first, but completes after every part of the first.
    expect(order).toEqual([
      'wrote 10,11', 'wrote 0', 'wrote 2',
      'commit 0', 'commit 2', 'commit 10,11',
      'resolve 0', 'resolve 2', 'resolve 10', 'resolve 11',
    ]);
  });

  it('merges the last-seen rows of each written (sub)batch, and keeps back-pressure', async () => {
    const seenWritten: Batch['seen'][] = [];
    const writer = new BatchWriter(
      async (b) => {
        if (b.telemetry.some((t) => t.vals.bad)) throw dataError();
        seenWritten.push(b.seen);
      },
      { maxRows: 1000, flushMs: 5, maxQueued: 5 },
      () => {},
    );
    const at = (s: number) => new Date(1_800_000_000_000 + s * 1000).toISOString();
    const results = [
      settle(writer.add({ seen: [{ deviceId: 1, at: at(1), online: true }] })),
      settle(writer.add({ seen: [{ deviceId: 1, at: at(2), info: { fw: '1' } }] })),
      settle(writer.add({ telemetry: [row(2, 0, true)], seen: [{ deviceId: 2, at: at(3) }] })),
      settle(writer.add({ seen: [{ deviceId: 3, at: at(4) }] })),
    ];
    // The queue is full (5 rows): the next message waits for room.
    let queued = false;
    const late = settle(writer.add({ seen: [{ deviceId: 4, at: at(5) }] }, () => (queued = true)));
    expect(queued).toBe(false);
    await writer.flush();
    expect((await Promise.all(results)).map((o) => (o === 'stored' ? o : (o as Error).name))).toEqual(['stored', 'stored', 'NotStoredError', 'stored']);
    // Device 1's two rows, in one sub-batch, are one row: the state change (its time) and the info.
    expect(seenWritten[0]).toEqual([{ deviceId: 1, at: at(1), online: true, info: { fw: '1' } }]);
    await expect.poll(() => queued).toBe(true);
    await writer.flush();
    expect(await late).toBe('stored');
  });
});
