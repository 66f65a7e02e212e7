import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { AppEvents } from '../src/lib/events.js';
import { createRedisBus, type RedisBus } from '../src/lib/redis-bus.js';
import { loadConfig } from '../src/config.js';
import { buildTestApp } from './helpers.js';
import { redisReachable, subscribers, TEST_REDIS_URL, uniqueChannel } from './redis.js';

/** A logger that keeps what it was told. */
function memoryLog() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (a: unknown, b?: unknown) => lines.push({ level, msg: String(typeof a === 'string' ? a : b) });
  return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } as never };
}

const values = (n: number): AppEvents['device.values'] => ({ deviceId: n, ts: new Date(0).toISOString(), values: { v: n } });
const reachable = await redisReachable();

describe.skipIf(!reachable)('Redis event bus (decision 0035)', () => {
  const channel = uniqueChannel('bus');
  let a: RedisBus;
  let b: RedisBus;
  let raw: Redis;
  /** Each bus's deliveries of `device.values` (device ids) and `menus.changed` markers. */
  const got = { a: [] as number[], b: [] as number[], bLocal: [] as number[], markersA: 0, markersB: 0 };

  /**
   * A message published after everything before it: Redis delivers one channel's messages to each
   * subscriber in publish order, so once both buses heard it, any echo or duplicate would have come.
   */
  const barrier = async () => {
    const before = { a: got.markersA, b: got.markersB };
    await raw.publish(channel, JSON.stringify({ i: 'barrier', n: 'menus.changed', p: {} }));
    await expect.poll(() => got.markersA > before.a && got.markersB > before.b).toBe(true);
  };

  beforeAll(async () => {
    a = createRedisBus(TEST_REDIS_URL, memoryLog().log, { channel });
    b = createRedisBus(TEST_REDIS_URL, memoryLog().log, { channel });
    raw = new Redis(TEST_REDIS_URL);
    a.on('device.values', (p) => got.a.push(p.deviceId));
    b.on('device.values', (p) => got.b.push(p.deviceId));
    b.on('device.values', (p) => got.bLocal.push(p.deviceId), { local: true });
    a.on('menus.changed', () => got.markersA++);
    b.on('menus.changed', () => got.markersB++);
    await subscribers(channel, 2);
  });
  // Tests run in a random order: each starts once the previous one's messages are all in.
  beforeEach(async () => {
    await barrier();
    got.a.length = 0;
    got.b.length = 0;
    got.bLocal.length = 0;
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    raw?.disconnect();
  });

  it('an event emitted on A arrives once on A (at once) and once on B; B’s own emit is not echoed', async () => {
    a.emit('device.values', values(1));
    // Delivered in the emitting process synchronously, as the local bus does.
    expect(got.a).toEqual([1]);
    await expect.poll(() => got.b).toEqual([1]);
    b.emit('device.values', values(2));
    expect(got.b).toEqual([1, 2]);
    await expect.poll(() => got.a).toEqual([1, 2]);
    await barrier();
    expect(got.a).toEqual([1, 2]);
    expect(got.b).toEqual([1, 2]);
  });

  it('a listener subscribed with `local` hears only its own instance’s events', async () => {
    a.emit('device.values', values(3));
    b.emit('device.values', values(4));
    await barrier();
    expect(got.bLocal).toEqual([4]);
    expect(got.b.sort()).toEqual([3, 4]);
  });

  it('keeps the payload as emitted, and ignores what it cannot read', async () => {
    const seen: AppEvents['alarms.changed'][] = [];
    const off = b.on('alarms.changed', (p) => seen.push(p));
    await raw.publish(channel, 'not json');
    await raw.publish(channel, JSON.stringify({ i: 'x', n: 42, p: {} }));
    const payload: AppEvents['device.command'] = { deviceId: 7, id: 'c-1', kind: 'reboot', status: 'succeeded', message: 'ok', progress: null };
    const commands: unknown[] = [];
    const offC = b.on('device.command', (p) => commands.push(p));
    a.emit('device.command', payload);
    await barrier();
    expect(commands).toEqual([payload]);
    expect(seen).toEqual([]);
    off();
    offC();
  });

  it('answers a PING, and close() leaves the channel and stops delivery', async () => {
    await expect(a.ping()).resolves.toBeUndefined();
    const c = createRedisBus(TEST_REDIS_URL, memoryLog().log, { channel });
    const heard: number[] = [];
    c.on('device.values', (p) => heard.push(p.deviceId));
    await subscribers(channel, 3);
    a.emit('device.values', values(5));
    await expect.poll(() => heard).toEqual([5]);
    await c.close();
    await expect.poll(async () => Number(((await raw.pubsub('NUMSUB', channel)) as [string, number])[1])).toBe(2);
    a.emit('device.values', values(6));
    await barrier();
    expect(heard).toEqual([5]);
    await expect(c.ping()).rejects.toThrow();
  });
});

describe.skipIf(!reachable)('Redis event bus when its connections drop', () => {
  it('logs the loss, reconnects, subscribes again and delivers again', async () => {
    const channel = uniqueChannel('drop');
    const { lines, log } = memoryLog();
    const a = createRedisBus(TEST_REDIS_URL, memoryLog().log, { channel });
    const b = createRedisBus(TEST_REDIS_URL, log, { channel });
    const raw = new Redis(TEST_REDIS_URL);
    try {
      const heard: number[] = [];
      b.on('device.values', (p) => heard.push(p.deviceId));
      await subscribers(channel, 2);
      // Redis drops both of B's connections, as a restart or a network cut would.
      const mine = String(await raw.client('LIST'))
        .split('\n')
        .filter((l) => / name=iot-(pub|sub)-/.test(l) && l.includes(b.instanceId.slice(0, 8)))
        .map((l) => /\bid=(\d+)/.exec(l)![1]!);
      expect(mine).toHaveLength(2);
      for (const id of mine) await raw.client('KILL', 'ID', id);
      await expect.poll(() => lines.some((l) => l.level === 'warn' && /connection lost/.test(l.msg))).toBe(true);
      await expect.poll(() => lines.filter((l) => l.level === 'info' && /reconnected/.test(l.msg)).length, { timeout: 10_000 }).toBe(2);
      await subscribers(channel, 2);
      await expect.poll(() => b.ping().then(() => 'ok', (e: Error) => e.message)).toBe('ok');
      a.emit('device.values', values(9));
      await expect.poll(() => heard).toEqual([9]);
    } finally {
      await Promise.all([a.close(), b.close()]);
      raw.disconnect();
    }
  });
});

describe('Redis event bus without Redis', () => {
  it('still delivers locally, logs the outage, fails its PING and closes', async () => {
    const { lines, log } = memoryLog();
    // Nothing listens on port 1: connections are refused at once.
    const bus = createRedisBus('redis://127.0.0.1:1', log, { channel: uniqueChannel('down') });
    const heard: number[] = [];
    bus.on('device.values', (p) => heard.push(p.deviceId));
    bus.on('device.values', (p) => heard.push(-p.deviceId), { local: true });
    bus.emit('device.values', values(1));
    expect(heard).toEqual([1, -1]);
    await expect(bus.ping()).rejects.toThrow();
    await expect.poll(() => lines.some((l) => l.level === 'warn' && /connection lost/.test(l.msg))).toBe(true);
    expect(lines.some((l) => l.level === 'warn' && /not published/.test(l.msg))).toBe(true);
    // One line per outage, not one per retry or per event.
    for (let i = 0; i < 100; i++) bus.emit('device.values', values(i));
    expect(lines.filter((l) => /not published/.test(l.msg))).toHaveLength(1);
    await bus.close();
  });

  it('the server starts with Redis down; /readyz names redis down, the database up', async () => {
    const t = await buildTestApp({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_CHANNEL: uniqueChannel('boot') });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.database).toBe('ok');
      expect(res.json().checks.redis).not.toBe('ok');
      // It serves: a login works.
      await t.login();
    } finally {
      await t.close();
    }
  });

  it.skipIf(!reachable)('with Redis up, /readyz says redis ok', async () => {
    const t = await buildTestApp({ REDIS_URL: TEST_REDIS_URL, REDIS_CHANNEL: uniqueChannel('ready') });
    try {
      await expect.poll(async () => (await t.app.inject({ method: 'GET', url: '/readyz' })).json().checks).toEqual({ database: 'ok', redis: 'ok' });
    } finally {
      await t.close();
    }
  });
});

describe('Redis settings', () => {
  it('REDIS_URL takes redis:// or rediss://; REDIS_CHANNEL defaults to iot:events and refuses odd names', () => {
    expect(loadConfig({})).toMatchObject({ redisUrl: undefined, redisChannel: 'iot:events' });
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache:6380/0', REDIS_CHANNEL: 'fleet-a:events' })).toMatchObject({
      redisUrl: 'rediss://:pw@cache:6380/0',
      redisChannel: 'fleet-a:events',
    });
    expect(() => loadConfig({ REDIS_URL: 'http://cache:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ REDIS_CHANNEL: 'events *' })).toThrow(/REDIS_CHANNEL/);
  });
});
