import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline/promises';
import { ErrorCode } from '@iot/contract';
import type { LngLat } from '@iot/sim-model';

/** A device the simulator plays: its SN and ingestion secret. */
export interface SimDevice {
  sn: string;
  secret: string;
}

/** What `--save-secrets` writes and `--secrets` reads. */
export interface SecretsFile {
  /** Whether the devices' type records tracks (GPS fixes are sent). */
  track: boolean;
  devices: SimDevice[];
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A small client of the console's REST API (`{code, message, data}` envelopes, bearer token). */
export class ConsoleApi {
  constructor(
    readonly base: string,
    private token?: string,
  ) {
    this.base = base.replace(/\/+$/, '');
  }

  async call<T>(method: 'GET' | 'POST', route: string, body?: object): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.base}/api/v1${route}`, {
        method,
        headers: {
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (err) {
      throw new Error(`cannot reach the console at ${this.base}: ${(err as Error).cause ?? (err as Error).message}`);
    }
    const text = await res.text();
    let env: Envelope<T>;
    try {
      env = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new Error(`${method} ${route}: HTTP ${res.status}, not an API answer: ${text.slice(0, 120)}`);
    }
    if (env.code !== 20000) throw new ApiError(env.code, `${method} ${route}: ${env.message} (${env.code})`);
    return env.data;
  }

  /**
   * Logs in. When the server asks for a captcha (CAPTCHA=on) and this runs on a terminal, the
   * challenge is saved as an SVG file to open and its code is asked for; otherwise the error says
   * how to do without (CAPTCHA=off on the server, --token, or --secrets).
   */
  async login(username: string, password: string, interactive = process.stdin.isTTY === true): Promise<void> {
    const info = await this.call<{ key: string; image: string; required: boolean }>('GET', '/login/captchaInfo');
    let captcha = '';
    if (info.required) {
      if (!interactive) {
        throw new Error(
          'the console asks for a captcha at login: run the simulator on a terminal to type it, start the server ' +
            'with CAPTCHA=off, pass a session token with --token, or use --secrets',
        );
      }
      const file = path.join(os.tmpdir(), `iot-simulator-captcha-${process.pid}.svg`);
      await fs.writeFile(file, info.image);
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
      try {
        captcha = (await rl.question(`The console asks for a captcha: open ${file} and type its code: `)).trim();
      } finally {
        rl.close();
        await fs.rm(file, { force: true });
      }
    }
    const r = await this.call<{ token: string }>('POST', '/user/login', { username, password, captcha, key: info.key });
    this.token = r.token;
  }
}

export interface ProvisionOptions {
  count: number;
  /** SN prefix: SIM- gives SIM-000001, SIM-000002 … */
  prefix?: string;
  projectName?: string;
  /** Device type code (the built-in battery type). */
  typeCode?: string;
  centre?: LngLat;
  log?: (line: string) => void;
}

export interface Provisioned extends SecretsFile {
  projectId: number;
  typeId: number;
  created: number;
  renewed: number;
}

export const snOf = (prefix: string, i: number) => `${prefix}${String(i).padStart(6, '0')}`;

/**
 * Registers the simulated devices through the API: a project (created once, by name), then one
 * device per SN. A device that exists already gets a new secret (`POST /device/credential`), so
 * the simulator can always log in with what it holds; the old secret stops working.
 */
export async function provision(api: ConsoleApi, opts: ProvisionOptions): Promise<Provisioned> {
  const prefix = opts.prefix ?? 'SIM-';
  const projectName = opts.projectName ?? 'Simulated fleet';
  const typeCode = opts.typeCode ?? 'BMU';
  const [lng, lat] = opts.centre ?? [116.397, 39.909];

  const types = await api.call<{ id: number; code: string }[]>('GET', '/devicetype/typeoptionslist');
  const type = types.find((t) => t.code === typeCode);
  if (!type) throw new Error(`no device type with code ${typeCode} is visible to this user`);
  const { recordTrack } = await api.call<{ recordTrack: boolean }>('GET', `/devicetype/item?id=${type.id}`);

  const projects = await api.call<{ items: { id: number; name: string }[] }>(
    'GET',
    `/project/list?name=${encodeURIComponent(projectName)}&limit=200`,
  );
  let projectId = projects.items.find((p) => p.name === projectName)?.id;
  if (!projectId) {
    projectId = (
      await api.call<{ id: number }>('POST', '/project/addproject', {
        name: projectName,
        remarks: 'Devices played by the fleet simulator (npm run simulate)',
        lng,
        lat,
      })
    ).id;
    opts.log?.(`created project "${projectName}" (id ${projectId})`);
  }

  // Devices already in the project, by SN.
  const known = new Map<string, number>();
  for (let page = 1; ; page++) {
    const r = await api.call<{ total: number; items: { id: number; sn: string }[] }>(
      'GET',
      `/device/list?projectId=${projectId}&limit=200&page=${page}&sort=id&order=asc`,
    );
    for (const d of r.items) known.set(d.sn, d.id);
    if (page * 200 >= r.total || r.items.length === 0) break;
  }

  let created = 0;
  let renewed = 0;
  const renew = async (id: number) => {
    renewed++;
    return (await api.call<{ secret: string }>('POST', '/device/credential', { id })).secret;
  };
  const one = async (i: number): Promise<SimDevice> => {
    const sn = snOf(prefix, i);
    const id = known.get(sn);
    if (id) return { sn, secret: await renew(id) };
    try {
      const r = await api.call<{ secret: string }>('POST', '/device/add', {
        name: `Simulated BMU ${i}`,
        sn,
        typeId: type.id,
        projectId,
        lng,
        lat,
        manufacturerModel: 'iot-simulator',
      });
      created++;
      return { sn, secret: r.secret };
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== ErrorCode.CONFLICT) throw err;
      // The SN exists outside the project: find it and give it a new secret.
      const found = await api.call<{ items: { id: number; sn: string }[] }>('GET', `/device/list?q=${encodeURIComponent(sn)}&limit=20`);
      const other = found.items.find((d) => d.sn === sn);
      if (!other) throw new Error(`device ${sn} exists but this user cannot see it`, { cause: err });
      return { sn, secret: await renew(other.id) };
    }
  };
  const devices = await mapLimit(
    Array.from({ length: opts.count }, (_, i) => i + 1),
    8,
    one,
  );
  return { track: recordTrack, devices, projectId, typeId: type.id, created, renewed };
}

export async function readSecrets(file: string): Promise<SecretsFile> {
  const raw = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
  const parsed = Array.isArray(raw) ? { track: true, devices: raw } : (raw as Partial<SecretsFile>);
  const devices = parsed.devices;
  if (!Array.isArray(devices) || !devices.every((d) => typeof d?.sn === 'string' && typeof d?.secret === 'string')) {
    throw new Error(`${file}: expected {"track": true, "devices": [{"sn": "…", "secret": "…"}]}`);
  }
  return { track: parsed.track ?? true, devices };
}

export async function writeSecrets(file: string, secrets: SecretsFile): Promise<void> {
  // Secrets: readable by the owner only.
  await fs.writeFile(file, `${JSON.stringify({ track: secrets.track, devices: secrets.devices }, null, 2)}\n`, { mode: 0o600 });
}

/** Maps with at most `limit` calls in flight, keeping the order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
