import { isDataError, sqlStateOf } from '../lib/db-errors.js';
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

type Part = Partial<Batch>;

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** One message's rows and whoever waits for them; kept apart until the batch is written. */
interface Entry {
  part: Part;
  waiter: Waiter;
}

/** A (sub)batch as written: its rows, the messages they came from, and its failure if it failed. */
interface Written {
  batch: Batch;
  entries: Entry[];
  error?: unknown;
}

interface Flight {
  started: boolean;
  done: boolean;
  entries: Entry[];
  size: number;
  /** In the order written; filled while the flight is written. */
  written: Written[];
}

/**
 * A message the database refused when its rows were written alone (a data error: a string jsonb
 * will not take, a row for no partition…): it is not stored; the other messages of its batch are.
 */
export class NotStoredError extends Error {
  /** The SQLSTATE of the refusal, when there is one. */
  readonly sqlState: string | undefined;
  constructor(cause: unknown) {
    super('not stored: the database refused this message', { cause });
    this.name = 'NotStoredError';
    this.sqlState = sqlStateOf(cause);
  }
}

const emptyBatch = (): Batch => ({ telemetry: [], positions: [], logs: [], seen: [] });
const sizeOf = (b: Partial<Batch>) =>
  (b.telemetry?.length ?? 0) + (b.positions?.length ?? 0) + (b.logs?.length ?? 0) + (b.seen?.length ?? 0);

/** The rows of several messages as one batch, in their order. */
function merge(entries: readonly Entry[]): Batch {
  const b = emptyBatch();
  for (const { part } of entries) {
    if (part.telemetry) b.telemetry.push(...part.telemetry);
    if (part.positions) b.positions.push(...part.positions);
    if (part.logs) b.logs.push(...part.logs);
    if (part.seen) b.seen.push(...part.seen);
  }
  return b;
}

/**
 * The batch writer of the ingestion path: messages add their rows; one transaction writes them
 * all (one statement per table), then every message of the batch is told it is committed (a QoS 1
 * message is acknowledged only then). The queue is bounded: past `maxQueued` rows, `add` waits
 * until a batch has been written, which slows the publishers instead of growing memory.
 *
 * A bad message can only hurt its sender: each message's rows are kept apart until the batch is
 * written, and a batch the database refuses for its data (`isDataError`: one message's string that
 * jsonb will not take fails the statement of everyone's rows) is written again in halves, each
 * half that fails again in halves, down to single messages. Every message is then stored and
 * resolved except the ones refused alone, which are rejected with a NotStoredError. Any other
 * failure (the database unreachable, a timeout) fails the batch as it is: halving it would only
 * fail more often.
 *
 * `onError` is called with each (sub)batch whose write failed as soon as it failed (before any
 * half of it is written again, so the alarm engine forgets what that attempt evaluated);
 * `onCommit` with each committed (sub)batch, in order, once it and every earlier one are done.
 */
export class BatchWriter {
  private entries: Entry[] = [];
  private currentSize = 0;
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private roomWaiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly write: (batch: Batch) => Promise<void>,
    private readonly opts: WriterOptions,
    /** Called with each (sub)batch whose write failed, at once. */
    private readonly onError: (err: unknown, batch: Batch) => void,
    /** Called after each committed (sub)batch, in order. */
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
   * Adds a message's rows; resolves when they are committed, rejects when they are not (with a
   * NotStoredError when the database refused them alone). `onQueued` is called once the rows
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
    const done = new Promise<void>((resolve, reject) => this.entries.push({ part, waiter: { resolve, reject } }));
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
    const flight: Flight = { started: false, done: false, entries: this.entries, size: this.currentSize, written: [] };
    this.entries = [];
    this.currentSize = 0;
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
      this.writeEntries(f.entries, f.written).then(
        () => this.finish(f),
        (err: unknown) => {
          // Only a throwing onError gets here: what was not written yet fails with it.
          const recorded = new Set(f.written.flatMap((w) => w.entries));
          const rest = f.entries.filter((e) => !recorded.has(e));
          if (rest.length > 0) f.written.push({ batch: merge(rest), entries: rest, error: err });
          this.finish(f);
        },
      );
    }
  }

  /**
   * Writes the rows of `entries` as one batch; a data error splits them in halves written one
   * after the other (so a device's messages are still written in the order they came), down to
   * single messages. Each (sub)batch written is recorded in `written`, in order.
   */
  private async writeEntries(entries: Entry[], written: Written[]): Promise<void> {
    const batch = dedupeSeen(merge(entries));
    if (sizeOf(batch) === 0) {
      written.push({ batch, entries });
      return;
    }
    try {
      await this.write(batch);
      written.push({ batch, entries });
    } catch (err) {
      this.onError(err, batch);
      if (!isDataError(err)) {
        written.push({ batch, entries, error: err });
      } else if (entries.length === 1) {
        written.push({ batch, entries, error: new NotStoredError(err) });
      } else {
        const half = Math.ceil(entries.length / 2);
        await this.writeEntries(entries.slice(0, half), written);
        await this.writeEntries(entries.slice(half), written);
      }
    }
  }

  private finish(f: Flight) {
    f.done = true;
    this.writingNow--;
    // Complete in order: only the finished head of the line.
    while (this.flights[0]?.done) {
      const head = this.flights.shift()!;
      for (const w of head.written) {
        if (w.error === undefined) {
          for (const e of w.entries) e.waiter.resolve();
          this.onCommit(w.batch);
        } else {
          for (const e of w.entries) e.waiter.reject(w.error);
        }
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
