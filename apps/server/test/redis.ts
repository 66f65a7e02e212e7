import crypto from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis of this machine and CI (TEST_REDIS_URL overrides). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether Redis answers: the Redis tests skip (and say so) only when it does not, and never in CI
 * (.ci/run sets CI), where Redis is part of the machine and its absence is a failure.
 */
export async function redisReachable(url = TEST_REDIS_URL): Promise<boolean> {
  const c = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.ping();
    return true;
  } catch (err) {
    if (process.env.CI) throw new Error(`CI needs Redis at ${url}: ${(err as Error).message}`);
    console.warn(`Redis tests skipped: nothing answers at ${url} (set TEST_REDIS_URL or start Redis)`);
    return false;
  } finally {
    c.disconnect();
  }
}

/** A channel of this test run's own, so parallel test files never hear each other. */
export const uniqueChannel = (what: string) => `iot-test:${what}:${crypto.randomBytes(6).toString('hex')}`;

/** Resolves once `count` connections are subscribed to `channel` (buses subscribe on connect). */
export async function subscribers(channel: string, count: number, url = TEST_REDIS_URL, ms = 5000): Promise<void> {
  const c = new Redis(url);
  try {
    const end = Date.now() + ms;
    for (;;) {
      const [, n] = (await c.pubsub('NUMSUB', channel)) as [string, number];
      if (Number(n) >= count) return;
      if (Date.now() > end) throw new Error(`${channel}: ${n} of ${count} subscribers after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    c.disconnect();
  }
}
