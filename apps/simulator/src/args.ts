import { parseArgs as parseNodeArgs } from 'node:util';
import type { LngLat } from '@iot/sim-model';

export const USAGE = `Fleet simulator: battery management units talking to the console like real devices.

  npm run simulate -- --devices N --rate R [options]

  --devices N          devices to run (default 10)
  --rate R             messages per second for the whole fleet, spread evenly (default N/5:
                       each device every 5 s); 20/s per device at most (the console's default
                       DEVICE_RATE_LIMIT)
  --url URL            MQTT broker (default mqtt://localhost:1883, the console's embedded one)
  --http               post to the console's HTTP uplink instead of MQTT (POST /api/v1/ingest/…)
  --api URL            the console (default http://localhost:8080): device registration, and
                       the HTTP uplink with --http
  --user NAME          console user that registers the devices (env SIM_USER, ADMIN_USERNAME;
                       default admin)
  --password PW        its password (env SIM_PASSWORD, ADMIN_PASSWORD)
  --token TOKEN        a session token instead of --user/--password (env SIM_TOKEN)
  --secrets FILE       read SNs and secrets from FILE instead of registering devices
  --save-secrets FILE  write the SNs and secrets of the registered devices to FILE
  --prefix P           SN prefix (default SIM-: SIM-000001, SIM-000002 …)
  --project NAME       project the devices are created in (default "Simulated fleet")
  --centre LNG,LAT     city centre the routes go round (default 116.397,39.909)
  --speedup K          simulated seconds per real second (default 1: real time)
  --faults F           faults per device and hour of charging or discharging (default 0.5)
  --duration S         stop after S seconds (default: run until Ctrl-C)
  --wander-out S       each device leaves its geo-fence S seconds after it keeps one (the
                       console's setfence): it stands half a radius (at least 100 m) beyond the
                       border and reports that fix, so the console raises a fence alarm
  --upgrade-fail F     share (0–1) of firmware upgrades that fail at installation (default 0)
  --upgrade-silent F   share (0–1) of firmware upgrades a device never answers (default 0):
                       the console's stage timeout and retries take over
  -h, --help           this text

Devices are created through the API in the project (a device that exists gets a new secret),
then log in to the broker with their SN and secret. Ctrl-C disconnects them cleanly; they go
offline in the console. The protocol: docs/PROTOCOL.md.`;

export interface SimulatorArgs {
  devices: number;
  rate: number;
  transport: 'mqtt' | 'http';
  url: string;
  api: string;
  user: string;
  password?: string;
  token?: string;
  secrets?: string;
  saveSecrets?: string;
  prefix: string;
  project: string;
  centre: LngLat;
  speedup: number;
  faults: number;
  duration?: number;
  /** Seconds after keeping a geo-fence that a device wanders out of it. */
  wanderOut?: number;
  upgradeFail: number;
  upgradeSilent: number;
  help: boolean;
}

export class UsageError extends Error {}

/** Parses the command line (`env` supplies credentials not given as options). */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): SimulatorArgs {
  let parsed;
  try {
    parsed = parseNodeArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        devices: { type: 'string' },
        rate: { type: 'string' },
        url: { type: 'string' },
        http: { type: 'boolean' },
        api: { type: 'string' },
        user: { type: 'string' },
        password: { type: 'string' },
        token: { type: 'string' },
        secrets: { type: 'string' },
        'save-secrets': { type: 'string' },
        prefix: { type: 'string' },
        project: { type: 'string' },
        centre: { type: 'string' },
        speedup: { type: 'string' },
        faults: { type: 'string' },
        duration: { type: 'string' },
        'wander-out': { type: 'string' },
        'upgrade-fail': { type: 'string' },
        'upgrade-silent': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  const num = (name: string, raw: string | undefined, fallback: number, ok: (n: number) => boolean, what: string) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || !ok(n)) throw new UsageError(`--${name}: ${what}, not "${raw}"`);
    return n;
  };
  const devices = num('devices', v.devices, 10, (n) => Number.isInteger(n) && n >= 1 && n <= 100_000, 'a whole number 1–100000');
  const rate = num('rate', v.rate, devices / 5, (n) => n > 0 && n <= 1_000_000, 'messages per second, more than 0');
  let centre: LngLat = [116.397, 39.909];
  if (v.centre !== undefined) {
    const parts = v.centre.split(',').map(Number);
    if (parts.length !== 2 || !parts.every(Number.isFinite) || Math.abs(parts[0]!) > 180 || Math.abs(parts[1]!) > 80) {
      throw new UsageError(`--centre: LNG,LAT such as 116.397,39.909, not "${v.centre}"`);
    }
    centre = [parts[0]!, parts[1]!];
  }
  const url = v.url ?? 'mqtt://localhost:1883';
  if (!/^(mqtts?|tcp|wss?):\/\//.test(url)) throw new UsageError(`--url: an mqtt:// URL, not "${url}"`);
  const api = v.api ?? 'http://localhost:8080';
  if (!/^https?:\/\//.test(api)) throw new UsageError(`--api: an http:// URL, not "${api}"`);
  const prefix = v.prefix ?? 'SIM-';
  if (!/^[A-Za-z0-9_.:-]{0,50}$/.test(prefix)) throw new UsageError('--prefix: letters, digits and _ . : - only');
  return {
    devices,
    rate,
    transport: v.http ? 'http' : 'mqtt',
    url,
    api,
    user: v.user ?? env.SIM_USER ?? env.ADMIN_USERNAME ?? 'admin',
    password: v.password ?? env.SIM_PASSWORD ?? env.ADMIN_PASSWORD,
    token: v.token ?? env.SIM_TOKEN,
    secrets: v.secrets,
    saveSecrets: v['save-secrets'],
    prefix,
    project: v.project ?? 'Simulated fleet',
    centre,
    speedup: num('speedup', v.speedup, 1, (n) => n > 0 && n <= 10_000, 'a factor more than 0'),
    faults: num('faults', v.faults, 0.5, (n) => n >= 0 && n <= 3600, 'faults per hour, 0 or more'),
    duration: v.duration === undefined ? undefined : num('duration', v.duration, 0, (n) => n > 0, 'seconds, more than 0'),
    wanderOut: v['wander-out'] === undefined ? undefined : num('wander-out', v['wander-out'], 0, (n) => n >= 0 && n <= 86_400, 'seconds, 0–86400'),
    upgradeFail: num('upgrade-fail', v['upgrade-fail'], 0, (n) => n >= 0 && n <= 1, 'a share 0–1'),
    upgradeSilent: num('upgrade-silent', v['upgrade-silent'], 0, (n) => n >= 0 && n <= 1, 'a share 0–1'),
    help: v.help ?? false,
  };
}
