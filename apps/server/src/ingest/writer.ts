import type { Batch } from './ingest.repo.js';

export interface WriterOptions {
  /** Flush when this many rows wait (all tables together). */
  maxRows: number;
  /** Flush at least this often while rows wait. */
  flushMs: number;
  /** Publishers wait (back-pressure) while this many rows are queued or being written. */
  maxQueued: number;
  /** Batches written at once (PostgreSQL's pool allows several; PGlite has one connection). */
  concurrency?: number;
}

interface Flight {
  started: boolean;
  done: boolean;
  error?: unknown;
  batch: Batch;
  size: number;
  waiters: { resolve: () => void; reject: (e: unknown) => void }[];
}

type Part = Partial<Batch>;

const emptyBatch = (): Batch => ({ telemetry: [], positions: [], logs: [], seen: [] });
const sizeOf = (b: Partial<Batch>) =>
  (b.telemetry?.length ?? 0) + (b.positions?.length ?? 0) + (b.logs?.length ?? 0) + (b.seen?.length ?? 0);

/**
 * The batch writer of the ingestion path: messages add their rows; one transaction writes them
 * all (one statement per table), then every message of the batch is told it is committed (a QoS 1
 * message is acknowledged only then). The queue is bounded: past `maxQueued` rows, `add` waits
 * until a batch has been written, which slows the publishers instead of growing memory.
 */
export class BatchWriter {
  private current: Batch = emptyBatch();
  private currentSize = 0;
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private roomWaiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly write: (batch: Batch) => Promise<void>,
    private readonly opts: WriterOptions,
    private readonly onError: (err: unknown, batch: Batch) => void,
    /** Called after each committed batch. */
    private readonly onCommit: (batch: Batch) => void = () => {},
  ) {}

  /** Rows queued or being written. */
  get queued(): number {
    return this.currentSize + this.inFlight;
  }

  /** Messages waiting for room in the queue (back-pressure). */
  get waiting(): number {
    return this.roomWaiters.length;
  }

  /**
   * Adds a message's rows; resolves when they are committed. `onQueued` is called once the rows
   * are in the queue (after any wait for room): a QoS 0 publish is let go then, not at once, so
   * a full queue holds back QoS 0 publishers as it does QoS 1 ones.
   */
  async add(part: Part, onQueued?: () => void): Promise<void> {
    if (this.closed) throw new Error('ingestion is shutting down');
    while (this.queued >= this.opts.maxQueued) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    onQueued?.();
    // Nothing to write (a status message that changes nothing): done once what came before is.
    // Joining an empty batch would wait for a flush that never happens.
    if (sizeOf(part) === 0 && this.currentSize === 0) return this.idle();
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    const b = this.current;
    if (part.telemetry) b.telemetry.push(...part.telemetry);
    if (part.positions) b.positions.push(...part.positions);
    if (part.logs) b.logs.push(...part.logs);
    if (part.seen) b.seen.push(...part.seen);
    this.currentSize += sizeOf(part);
    if (this.currentSize >= this.opts.maxRows) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.opts.flushMs);
    return done;
  }

  /**
   * Writes what waits now. Up to `concurrency` batches are written at once, but they complete in
   * order: a message is told it is committed only when its batch and every earlier one are, so
   * "my QoS 1 message is acknowledged" still implies "everything I sent before is stored".
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.currentSize === 0) return this.idle();
    const flight: Flight = { started: false, done: false, batch: dedupeSeen(this.current), size: this.currentSize, waiters: this.waiters };
    this.current = emptyBatch();
    this.currentSize = 0;
    this.waiters = [];
    this.inFlight += flight.size;
    this.flights.push(flight);
    this.pump();
    return this.idle();
  }

  private flights: Flight[] = [];
  private writingNow = 0;
  private idleWaiters: (() => void)[] = [];

  /** Starts the next waiting batches while fewer than `concurrency` are being written. */
  private pump() {
    const limit = this.opts.concurrency ?? 1;
    for (const f of this.flights) {
      if (this.writingNow >= limit) break;
      if (f.started) continue;
      f.started = true;
      this.writingNow++;
      this.write(f.batch).then(
        () => this.finish(f),
        (err: unknown) => this.finish(f, err),
      );
    }
  }

  private finish(f: Flight, error?: unknown) {
    f.done = true;
    f.error = error;
    this.writingNow--;
    // Complete in order: only the finished head of the line.
    while (this.flights[0]?.done) {
      const head = this.flights.shift()!;
      if (head.error === undefined) {
        for (const w of head.waiters) w.resolve();
        this.onCommit(head.batch);
      } else {
        this.onError(head.error, head.batch);
        for (const w of head.waiters) w.reject(head.error);
      }
      this.inFlight -= head.size;
    }
    const room = this.roomWaiters.splice(0);
    for (const r of room) r();
    if (this.flights.length === 0) for (const w of this.idleWaiters.splice(0)) w();
    this.pump();
  }

  /** Resolves when nothing is being written. */
  private idle(): Promise<void> {
    if (this.flights.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** SIGTERM: no new rows; what is queued is written. */
  async drain(): Promise<void> {
    this.closed = true;
    await this.flush();
  }
}

/**
 * One update statement cannot touch a row twice: of several last-seen rows of one device in a
 * batch, one is kept, with the newest reported info (the latest values are merged per device by
 * ingest.repo's latestOf).
 */
function dedupeSeen(b: Batch): Batch {
  if (b.seen.length < 2) return b;
  const seen = new Map<number, Batch['seen'][number]>();
  for (const r of b.seen) {
    const prev = seen.get(r.deviceId);
    // The last reported info wins, whichever row carries it.
    const info = r.info ?? prev?.info;
    // The last state change wins; a plain last-seen never hides a change.
    if (!prev || r.online !== undefined || prev.online === undefined) {
      seen.set(r.deviceId, { ...r, at: prev && prev.at > r.at ? prev.at : r.at, online: r.online ?? prev?.online, ...(info ? { info } : {}) });
    } else if (info) prev.info = info;
  }
  return { ...b, seen: [...seen.values()] };
}
