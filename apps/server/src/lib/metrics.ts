import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What `/metrics` reads when it is scraped (the app's parts, given once they exist). */
export interface MetricSources {
  /** Messages since start: accepted per transport, refused per transport and reason. */
  ingest: {
    readonly accepted: ReadonlyMap<string, number>;
    readonly refused: ReadonlyMap<string, ReadonlyMap<string, number>>;
  };
  /** Rows in the batch writer's queue or being written. */
  queuedRows(): number;
  /** Messages waiting for room in that queue (back-pressure). */
  waitingMessages(): number;
  /** Open live-channel WebSockets. */
  liveSockets(): number;
  /** Alarms of the whole fleet per level: open (not ended) and untreated. */
  alarms(): Promise<{ active: ReadonlyMap<number, number>; untreated: ReadonlyMap<number, number> }>;
  /** Whether this instance runs the once-only timers (decision 0038). */
  leading(): boolean;
}

/** A route label for requests no route matched (404s), so stray URLs never become series. */
export const UNMATCHED_ROUTE = 'unmatched';

const ALARM_LEVELS = [1, 2, 3, 4] as const;

/**
 * The Prometheus metrics of one server instance (plugins/metrics.ts serves them). Anything kept
 * elsewhere anyway (ingestion counts, queue depth, sockets) is read at scrape time, so the
 * message path pays nothing for them; only batch times and HTTP latencies are observed as they
 * happen, once per batch and once per request. Labels take bounded values only: transports,
 * refusal reasons, levels, route patterns, methods and status classes, never a device or a URL.
 * A registry of its own per app, so tests can build several apps in one process.
 */
export class Metrics {
  readonly registry = new Registry();
  private sources: MetricSources | undefined;
  private readonly batchSeconds: Histogram<'outcome'>;
  private readonly httpSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly alarmsActive: Gauge<'level'>;
  private readonly alarmsUntreated: Gauge<'level'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const sources = () => this.sources;

    new Counter({
      name: 'iot_ingest_messages_accepted_total',
      help: 'Device messages accepted (something of them stored), by transport.',
      labelNames: ['transport'],
      registers,
      // The counts live in IngestService as plain numbers; copied here only when scraped.
      collect() {
        this.reset();
        for (const [transport, n] of sources()?.ingest.accepted ?? []) this.inc({ transport }, n);
      },
    });
    new Counter({
      name: 'iot_ingest_messages_refused_total',
      help: 'Device messages refused (nothing of them stored), by transport and first reason; writeFailed: the database failed the batch.',
      labelNames: ['transport', 'reason'],
      registers,
      collect() {
        this.reset();
        for (const [transport, byReason] of sources()?.ingest.refused ?? []) {
          for (const [reason, n] of byReason) this.inc({ transport, reason }, n);
        }
      },
    });
    new Gauge({
      name: 'iot_ingest_queue_rows',
      help: 'Rows in the ingestion batch writer, queued or being written (publishers wait past 8000).',
      registers,
      collect() {
        this.set(sources()?.queuedRows() ?? 0);
      },
    });
    new Gauge({
      name: 'iot_ingest_waiting_messages',
      help: 'Device messages waiting for room in the ingestion queue (back-pressure).',
      registers,
      collect() {
        this.set(sources()?.waitingMessages() ?? 0);
      },
    });
    this.batchSeconds = new Histogram({
      name: 'iot_ingest_batch_seconds',
      help: 'Time to write one ingestion batch in its transaction, retries included, by outcome (committed, failed).',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    new Gauge({
      name: 'iot_live_sockets',
      help: 'Open live-channel WebSockets (browsers) on this instance.',
      registers,
      collect() {
        this.set(sources()?.liveSockets() ?? 0);
      },
    });
    new Gauge({
      name: 'iot_leader',
      help: 'Whether this instance leads (runs the once-only timers: partitions, rollups, card jobs, upgrade rounds, demo): 1 or 0.',
      registers,
      collect() {
        this.set(sources()?.leading() ? 1 : 0);
      },
    });
    this.alarmsActive = new Gauge({
      name: 'iot_alarms_active',
      help: 'Alarms not ended, over the whole fleet, by level (1-4, 4 the most severe).',
      labelNames: ['level'],
      registers,
    });
    this.alarmsUntreated = new Gauge({
      name: 'iot_alarms_untreated',
      help: 'Alarms neither processed nor ignored, ended or not, over the whole fleet, by level.',
      labelNames: ['level'],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: 'iot_http_request_seconds',
      help: 'HTTP request latency by method, route pattern and status class (2xx, 4xx...).',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
  }

  /** The parts read at scrape time (app.ts, once they are built). */
  watch(sources: MetricSources): void {
    this.sources = sources;
  }

  /** One ingestion batch written (telemetry/pipeline.ts `observeBatch`). */
  readonly observeBatch = (seconds: number, committed: boolean): void => {
    this.batchSeconds.observe({ outcome: committed ? 'committed' : 'failed' }, seconds);
  };

  /** One HTTP request answered; `route` is the matched pattern or UNMATCHED_ROUTE. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpSeconds.observe({ method, route, status: `${Math.floor(statusCode / 100)}xx` }, seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * The exposition text. The alarm gauges need the database: read once here (one statement)
   * rather than in each gauge's collect; if that fails the scrape still answers the rest, without
   * the alarm series, and the caller logs why.
   */
  async render(onError: (err: unknown) => void): Promise<string> {
    this.alarmsActive.reset();
    this.alarmsUntreated.reset();
    if (this.sources) {
      try {
        const { active, untreated } = await this.sources.alarms();
        // Every level present, 0 included, so an alert on a level sees it fall back to 0.
        for (const level of ALARM_LEVELS) {
          this.alarmsActive.set({ level: String(level) }, active.get(level) ?? 0);
          this.alarmsUntreated.set({ level: String(level) }, untreated.get(level) ?? 0);
        }
      } catch (err) {
        onError(err);
      }
    }
    return this.registry.metrics();
  }
}
