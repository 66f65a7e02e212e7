import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from './args.js';
import { formatReport, RoundRobin } from './fleet.js';

describe('simulator command line', () => {
  it('has defaults: 10 devices, each every 5 s, over the local embedded broker', () => {
    expect(parseArgs([], {})).toMatchObject({
      devices: 10,
      rate: 2,
      transport: 'mqtt',
      url: 'mqtt://localhost:1883',
      api: 'http://localhost:8080',
      user: 'admin',
      prefix: 'SIM-',
      project: 'Simulated fleet',
      speedup: 1,
    });
  });

  it('reads options and takes credentials from the environment', () => {
    const a = parseArgs(['--devices', '100', '--rate', '250', '--http', '--api', 'http://console:8080', '--save-secrets', 's.json', '--centre', '114.06,22.54'], {
      SIM_USER: 'ops',
      SIM_PASSWORD: 'secret-pw',
    });
    expect(a).toMatchObject({ devices: 100, rate: 250, transport: 'http', api: 'http://console:8080', user: 'ops', password: 'secret-pw', saveSecrets: 's.json', centre: [114.06, 22.54] });
    expect(parseArgs(['--password', 'x'], { ADMIN_PASSWORD: 'y' }).password).toBe('x');
    expect(parseArgs(['--wander-out', '60'], {}).wanderOut).toBe(60);
    expect(parseArgs([], {}).wanderOut).toBeUndefined();
    expect(() => parseArgs(['--wander-out', 'soon'], {})).toThrow(/--wander-out/);
    expect(parseArgs([], { ADMIN_USERNAME: 'root', ADMIN_PASSWORD: 'y' })).toMatchObject({ user: 'root', password: 'y' });
  });

  it('refuses bad values with the option named', () => {
    expect(() => parseArgs(['--devices', '0'], {})).toThrow(/--devices/);
    expect(() => parseArgs(['--rate', 'fast'], {})).toThrow(/--rate/);
    expect(() => parseArgs(['--url', 'http://x'], {})).toThrow(/--url/);
    expect(() => parseArgs(['--centre', '500,1'], {})).toThrow(/--centre/);
    expect(() => parseArgs(['--bogus'], {})).toThrow(UsageError);
  });
});

describe('fleet schedule', () => {
  it('spreads R messages a second evenly over the devices', () => {
    const rr = new RoundRobin(10, 5, 0);
    const times: number[][] = Array.from({ length: 10 }, () => []);
    for (let t = 50; t <= 20_000; t += 50) for (const i of rr.due(t)) times[i]!.push(t);
    const total = times.reduce((n, ts) => n + ts.length, 0);
    expect(total).toBeGreaterThanOrEqual(99);
    expect(total).toBeLessThanOrEqual(100);
    for (const ts of times) {
      // Each device every 10 / 5 = 2 s.
      for (let i = 1; i < ts.length; i++) expect(Math.abs(ts[i]! - ts[i - 1]! - 2000)).toBeLessThanOrEqual(50);
    }
  });

  it('does not burst after a stall', () => {
    const rr = new RoundRobin(4, 100, 0);
    expect(rr.due(60_000)).toHaveLength(4);
    expect(rr.due(60_010).length).toBeLessThanOrEqual(2);
  });

  it('reports rates per second', () => {
    const base = { sent: 0, acked: 0, errors: 0, skipped: 0, commands: 0, connected: 3, refused: 0, devices: 3 };
    const line = formatReport(base, { ...base, sent: 50, acked: 45, errors: 2 }, 5);
    expect(line).toMatch(/sent 10\.0\/s {2}acked 9\.0\/s {2}errors 2 {2}connected 3\/3$/);
  });
});
