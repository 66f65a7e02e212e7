import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type { Redis as RedisClient } from 'ioredis';
import type { AppEvents, EventBus, EventName } from './events.js';

/** What one instance publishes: its id (to ignore its own), the event's name and payload. */
interface Wire {
  i: string;
  n: string;
  p: unknown;
}

export interface RedisBus extends EventBus {
  /** This process's id on the channel. */
  readonly instanceId: string;
  /** Resolves when Redis answers a PING (readiness); rejects at once while disconnected. */
  ping(): Promise<void>;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** How often at most a Redis outage is logged again while events keep being dropped. */
const DROP_LOG_EVERY_MS = 30_000;

/**
 * The event bus of several instances (decision 0035): every event is delivered in this process at
 * once, exactly as the local bus does, and published on one Redis pub/sub channel; the other
 * instances deliver it to their own listeners, except those subscribed with `local` (database
 * writes run where the event happened). An instance ignores what it published itself.
 *
 * Redis is never needed to serve: while it is unreachable this instance still delivers its own
 * events, drops what it would publish (counted and logged, never queued: pub/sub has no history
 * to catch up with anyway) and ioredis reconnects by itself; `/readyz` says `redis` is down.
 */
/**
 * ioredis, loaded on the first use: only instances with REDIS_URL need it, and it cost an embedded
 * server's start about 0.3 s and 6 MB of heap (bench/README.md "Production start").
 */
export function redisClient(): typeof RedisClient {
  return (createRequire(import.meta.url)('ioredis') as typeof IORedis).Redis;
}

export function createRedisBus(url: string, log: Log, opts: { channel?: string } = {}): RedisBus {
  const channel = opts.channel ?? 'iot:events';
  const instanceId = randomUUID();
  const emitter = new EventEmitter();
  emitter.setMaxListeners(100);
  // No offline queue: a publish while disconnected fails at once instead of piling up in memory
  // at ingestion rates; the subscriber subscribes again on every `ready` itself.
  const common = { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false } as const;
  const Redis = redisClient();
  const pub = new Redis(url, { ...common, connectionName: `iot-pub-${instanceId.slice(0, 8)}` });
  const sub = new Redis(url, { ...common, autoResubscribe: false, connectionName: `iot-sub-${instanceId.slice(0, 8)}` });
  let closing = false;

  // One line per outage and connection, not one per retry (ioredis retries every ≤ 2 s).
  for (const [role, client] of [['publisher', pub], ['subscriber', sub]] as const) {
    let down = false;
    const lost = (err?: Error) => {
      if (down || closing) return;
      down = true;
      log.warn({ err: err && { message: err.message }, role, channel }, 'redis events: connection lost, reconnecting');
    };
    client.on('error', lost);
    // A connection Redis closes (a restart, a killed client) raises no error.
    client.on('close', () => lost());
    client.on('ready', () => {
      if (down) log.info({ role, channel }, 'redis events: reconnected');
      down = false;
    });
  }
  sub.on('ready', () => {
    sub.subscribe(channel).catch((err: Error) => log.error({ err, channel }, 'redis events: subscribe failed'));
  });
  sub.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    let wire: Wire;
    try {
      wire = JSON.parse(raw) as Wire;
    } catch {
      log.warn({ channel }, 'redis events: unreadable message ignored');
      return;
    }
    if (wire.i === instanceId || typeof wire.n !== 'string') return;
    try {
      emitter.emit(wire.n, wire.p, false);
    } catch (err) {
      // A listener's fault must not reach ioredis's socket handler (it would crash the process).
      log.error({ err, event: wire.n }, 'redis events: listener failed on a remote event');
    }
  });

  let dropped = 0;
  let droppedLoggedAt = 0;
  const dropOne = (err: Error) => {
    dropped++;
    const now = Date.now();
    if (now - droppedLoggedAt < DROP_LOG_EVERY_MS) return;
    droppedLoggedAt = now;
    log.warn({ err: { message: err.message }, dropped, channel }, 'redis events: not published, other instances miss them');
  };

  return {
    instanceId,
    emit<K extends EventName>(name: K, payload: AppEvents[K]) {
      // Serialised before local listeners run: what the others get is what was emitted.
      const wire = JSON.stringify({ i: instanceId, n: name, p: payload } satisfies Wire);
      if (pub.status === 'ready') pub.publish(channel, wire).catch(dropOne);
      else if (!closing) dropOne(new Error(`redis ${pub.status}`));
      emitter.emit(name, payload, true);
    },
    on(name, handler, o) {
      const listener = (payload: unknown, mine: boolean) => {
        if (o?.local && !mine) return;
        (handler as (p: unknown) => void)(payload);
      };
      emitter.on(name, listener);
      return () => emitter.off(name, listener);
    },
    async ping() {
      // Both halves: a publisher alone would send events but hear none.
      if (sub.status !== 'ready') throw new Error(`redis subscriber ${sub.status}`);
      await pub.ping();
    },
    async close() {
      closing = true;
      emitter.removeAllListeners();
      await Promise.all(
        [pub, sub].map(async (c) => {
          if (c.status === 'ready') await c.quit().catch(() => c.disconnect());
          else c.disconnect();
        }),
      );
    },
  };
}
