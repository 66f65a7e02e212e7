import mqtt, { type MqttClient } from 'mqtt';
import { DOWNLINK_KIND, ErrorCode, deviceTopic, type AckMessage, type UplinkKind } from '@iot/contract';
import { BmuModel, type LngLat, type Uplink } from '@iot/sim-model';
import type { SimDevice } from './api.js';
import { fetchFirmware } from './firmware.js';

export type Transport = { kind: 'mqtt'; url: string } | { kind: 'http'; api: string };

export interface FleetOptions {
  devices: SimDevice[];
  /** Messages per second for the whole fleet, spread evenly over the devices. */
  rate: number;
  transport: Transport;
  /** The devices' type records tracks: they drive and send GPS fixes. */
  track?: boolean;
  centre?: LngLat;
  /** Simulated seconds per real second (1: real time). */
  timeScale?: number;
  faultsPerHour?: number;
  /** Real ms after keeping a geo-fence that a device wanders out of it (BmuModel `wanderOutAfterMs`). */
  wanderOutAfterMs?: number;
  /** Messages a device may have unacknowledged before its turns are skipped. */
  maxInflight?: number;
  /** Shares of firmware upgrades that fail at installation and that go silent (BmuModel). */
  upgradeFailRate?: number;
  upgradeSilentRate?: number;
  /**
   * The console's address: an upgrade image there is fetched with the device's credentials (the
   * console's download route asks for them); images elsewhere without.
   */
  consoleOrigin?: string;
  /** Warnings (a refused login, a lost connection). */
  log?: (line: string) => void;
}

/** Counters since the start. */
export interface FleetStats {
  sent: number;
  acked: number;
  errors: number;
  /** Turns skipped because the device was not connected or had too much unacknowledged. */
  skipped: number;
  commands: number;
  connected: number;
  /** Devices whose SN or secret the console refused (they stop trying). */
  refused: number;
  devices: number;
}

interface Counters {
  sent: number;
  acked: number;
  errors: number;
  skipped: number;
  commands: number;
}

/**
 * An upgrade the model accepted (its first `progress`): the device fetches the image, checks it and
 * tells the model how it went; the model's answers go out with its next messages.
 */
function download(model: BmuModel, device: SimDevice, cmd: unknown, ack: AckMessage, consoleOrigin: string | undefined, log: (line: string) => void) {
  const c = cmd as { id?: string; kind?: string; payload?: { url?: string; size?: number; sha256?: string } };
  if (c.kind !== 'firmwareUpgrade' || ack.result !== 'progress' || ack.progress !== 0 || !c.id || !c.payload?.url) return;
  const { url, size, sha256 } = c.payload;
  const own = consoleOrigin !== undefined && new URL(url).origin === new URL(consoleOrigin).origin;
  const auth = own ? `Basic ${Buffer.from(`${device.sn}:${device.secret}`).toString('base64')}` : undefined;
  const id = c.id;
  void fetchFirmware(url, { size, sha256 }, { auth, onProgress: (percent) => model.downloaded(id, Date.now(), { percent }) }).then((result) => {
    if (result !== 'done') log(`${device.sn}: firmware ${result.error}`);
    model.downloaded(id, Date.now(), result);
  });
}

/** One simulated device on the wire. */
interface Link {
  readonly sn: string;
  readonly model: BmuModel;
  /** Connected (MQTT) or the last request went through (HTTP). */
  readonly up: boolean;
  /** The console refused the SN or secret. */
  readonly refused: boolean;
  readonly inflight: number;
  start(): Promise<void>;
  send(msg: Uplink): void;
  stop(): Promise<void>;
}

/** One turn per device per tick at most: 20 messages/s per device, the console's default DEVICE_RATE_LIMIT. */
const TICK_MS = 50;

/**
 * Runs a fleet of simulated battery management units: each device logs in with its SN and
 * secret, says it is online, and takes its turn round-robin so the fleet sends `rate` messages a
 * second in all (telemetry, GPS fixes, alarms). Over MQTT every message is QoS 1 and counted as
 * acknowledged at its PUBACK (which the console sends once it is stored); commands on
 * `dev/<sn>/cmd` are answered on `dev/<sn>/ack`. `stop()` disconnects cleanly (DISCONNECT, so
 * the console marks the devices offline).
 */
export class Fleet {
  private readonly links: Link[];
  private readonly counters: Counters = { sent: 0, acked: 0, errors: 0, skipped: 0, commands: 0 };
  private timer: NodeJS.Timeout | undefined;
  private schedule: RoundRobin | undefined;
  private stopped = false;

  constructor(private readonly opts: FleetOptions) {
    const now = Date.now();
    const log = opts.log ?? (() => undefined);
    this.links = opts.devices.map((d) => {
      const model = new BmuModel({
        sn: d.sn,
        now,
        track: opts.track ?? true,
        centre: opts.centre,
        timeScale: opts.timeScale,
        faultsPerHour: opts.faultsPerHour,
        wanderOutAfterMs: opts.wanderOutAfterMs,
        upgradeFailRate: opts.upgradeFailRate,
        upgradeSilentRate: opts.upgradeSilentRate,
        // Each device fetches and checks the image it is told to install.
        downloads: true,
      });
      return opts.transport.kind === 'mqtt'
        ? new MqttLink(d, model, opts.transport.url, this.counters, log, opts.consoleOrigin)
        : new HttpLink(d, model, opts.transport.api, this.counters, log, opts.consoleOrigin ?? new URL(opts.transport.api).origin);
    });
  }

  /** Connects every device (a few at a time) and starts sending. */
  async start(): Promise<void> {
    const batch = 50;
    for (let i = 0; i < this.links.length && !this.stopped; i += batch) {
      await Promise.all(this.links.slice(i, i + batch).map((l) => l.start()));
    }
    if (this.stopped) return;
    this.schedule = new RoundRobin(this.links.length, this.opts.rate, Date.now());
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  private tick() {
    const now = Date.now();
    const maxInflight = this.opts.maxInflight ?? 20;
    for (const i of this.schedule!.due(now)) {
      const link = this.links[i]!;
      if (!link.up || link.inflight >= maxInflight) {
        this.counters.skipped++;
        continue;
      }
      link.send(link.model.next(now));
    }
  }

  stats(): FleetStats {
    return {
      ...this.counters,
      connected: this.links.filter((l) => l.up).length,
      refused: this.links.filter((l) => l.refused).length,
      devices: this.links.length,
    };
  }

  /** The simulated devices, for tests and tools. */
  get models(): BmuModel[] {
    return this.links.map((l) => l.model);
  }

  /** Stops sending, waits for what is in flight, and disconnects every device. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.links.map((l) => l.stop()));
  }
}

/**
 * Whose turn it is: `rate` turns a second in all, handed round the devices in order, so each
 * device speaks every `size / rate` seconds and the fleet's messages are spread evenly in time.
 */
export class RoundRobin {
  private credit = 0;
  private cursor = 0;

  constructor(
    private readonly size: number,
    private readonly rate: number,
    private last: number,
  ) {}

  /** Indexes of the devices whose turn came between the last call and `now` (epoch ms). */
  due(now: number): number[] {
    this.credit += (this.rate * Math.max(0, now - this.last)) / 1000;
    this.last = now;
    // At most one turn per device per call, so a stalled process does not catch up in a burst.
    const turns = Math.min(Math.floor(this.credit), this.size);
    this.credit = Math.min(this.credit - turns, 1);
    const out: number[] = [];
    for (let i = 0; i < turns; i++) out.push(this.cursor++ % this.size);
    return out;
  }
}

/** Starts a fleet (connected and sending when it resolves). */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  const fleet = new Fleet(opts);
  await fleet.start();
  return fleet;
}

/**
 * Prints one line every `everyMs`: message rates sent and acknowledged, errors, skipped turns
 * and connected devices over the last period. Returns a function that stops it.
 */
export function reportEvery(fleet: Fleet, everyMs: number, print: (line: string) => void): () => void {
  let prev = fleet.stats();
  let at = Date.now();
  const timer = setInterval(() => {
    const s = fleet.stats();
    const now = Date.now();
    print(formatReport(prev, s, (now - at) / 1000));
    prev = s;
    at = now;
  }, everyMs);
  return () => clearInterval(timer);
}

export function formatReport(prev: FleetStats, cur: FleetStats, seconds: number): string {
  const rate = (k: 'sent' | 'acked') => ((cur[k] - prev[k]) / seconds).toFixed(1);
  const time = new Date().toTimeString().slice(0, 8);
  const parts = [
    time,
    `sent ${rate('sent')}/s`,
    `acked ${rate('acked')}/s`,
    `errors ${cur.errors - prev.errors}`,
    `connected ${cur.connected}/${cur.devices}`,
  ];
  if (cur.refused > 0) parts.push(`refused ${cur.refused}`);
  if (cur.skipped > prev.skipped) parts.push(`skipped ${cur.skipped - prev.skipped}`);
  if (cur.commands > prev.commands) parts.push(`commands ${cur.commands - prev.commands}`);
  return parts.join('  ');
}

// ---- MQTT -----------------------------------------------------------------------------------------

class MqttLink implements Link {
  readonly sn: string;
  inflight = 0;
  private client: MqttClient | undefined;
  refused = false;

  constructor(
    private readonly device: SimDevice,
    readonly model: BmuModel,
    private readonly url: string,
    private readonly counters: Counters,
    private readonly log: (line: string) => void,
    private readonly consoleOrigin: string | undefined,
  ) {
    this.sn = device.sn;
  }

  get up() {
    return this.client?.connected === true;
  }

  start(): Promise<void> {
    const { sn, secret } = this.device;
    const client = mqtt.connect(this.url, {
      clientId: sn,
      username: sn,
      password: secret,
      protocolVersion: 4,
      clean: true,
      keepalive: 60,
      reconnectPeriod: 3000,
      connectTimeout: 10_000,
      // Dropped off the network without a DISCONNECT: the console learns it at once.
      will: { topic: deviceTopic(sn, 'status'), payload: Buffer.from('{"online":false}'), qos: 1, retain: false },
    });
    this.client = client;
    client.on('connect', () => {
      client.subscribe(deviceTopic(sn, DOWNLINK_KIND), { qos: 1 });
      this.publish({ kind: 'status', body: this.model.status(Date.now()) });
    });
    client.on('message', (_topic, payload) => {
      let cmd: unknown;
      try {
        cmd = JSON.parse(payload.toString());
      } catch {
        return;
      }
      const ack = this.model.command(cmd, Date.now());
      if (!ack) return;
      this.counters.commands++;
      this.publish({ kind: 'ack', body: ack });
      download(this.model, this.device, cmd, ack, this.consoleOrigin, this.log);
    });
    client.on('error', (err) => {
      const code = (err as { code?: number }).code;
      if (code === 4 || code === 5) {
        // Wrong SN or secret: retrying cannot help.
        this.refused = true;
        this.counters.errors++;
        this.log(`${sn}: login refused (${err.message}); check the secret`);
        client.end(true);
      }
    });
    client.on('offline', () => {
      if (!this.refused) this.log(`${sn}: connection lost, reconnecting`);
    });
    return new Promise((resolve) => {
      const done = () => {
        client.off('connect', done);
        client.off('close', done);
        resolve();
      };
      client.once('connect', done);
      // A refused or unreachable device does not hold the others up.
      client.once('close', done);
    });
  }

  send(msg: Uplink) {
    this.counters.sent++;
    this.publish(msg);
  }

  private publish(msg: Uplink) {
    const client = this.client;
    if (!client) return;
    this.inflight++;
    client.publish(deviceTopic(this.sn, msg.kind as UplinkKind), JSON.stringify(msg.body), { qos: 1 }, (err) => {
      this.inflight--;
      if (msg.kind === 'status' || msg.kind === 'ack') {
        if (err) this.counters.errors++;
        return;
      }
      if (err) this.counters.errors++;
      else this.counters.acked++;
    });
  }

  async stop(): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (!client.connected) {
      client.end(true);
      return;
    }
    // end() waits for the messages in flight, then sends DISCONNECT: the device goes offline.
    await Promise.race([client.endAsync(false), new Promise((r) => setTimeout(r, 5000))]);
    client.end(true);
  }
}

// ---- HTTP -----------------------------------------------------------------------------------------

/** In-flight HTTP requests for the whole fleet (a socket each). */
const HTTP_PARALLEL = 64;
let httpInflight = 0;

class HttpLink implements Link {
  readonly sn: string;
  up = false;
  refused = false;
  inflight = 0;
  private readonly auth: string;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly device: SimDevice,
    readonly model: BmuModel,
    private readonly api: string,
    private readonly counters: Counters,
    private readonly log: (line: string) => void,
    private readonly consoleOrigin: string | undefined,
  ) {
    this.sn = device.sn;
    this.auth = `Basic ${Buffer.from(`${device.sn}:${device.secret}`).toString('base64')}`;
  }

  async start(): Promise<void> {
    await this.post({ kind: 'status', body: this.model.status(Date.now()) });
  }

  send(msg: Uplink) {
    if (httpInflight >= HTTP_PARALLEL) {
      this.counters.skipped++;
      return;
    }
    this.counters.sent++;
    void this.post(msg);
  }

  private post(msg: Uplink): Promise<void> {
    const work = this.request(msg);
    this.pending.add(work);
    return work.finally(() => this.pending.delete(work));
  }

  private async request(msg: Uplink): Promise<void> {
    const counted = msg.kind !== 'status' && msg.kind !== 'ack';
    this.inflight++;
    httpInflight++;
    try {
      const res = await fetch(`${this.api.replace(/\/+$/, '')}/api/v1/ingest/${msg.kind}`, {
        method: 'POST',
        headers: { authorization: this.auth, 'content-type': 'application/json' },
        body: JSON.stringify(msg.body),
      });
      const env = (await res.json().catch(() => undefined)) as
        | { code: number; message: string; data?: { commands?: unknown[] } }
        | undefined;
      if (env?.code !== 20000) {
        if (this.up || msg.kind === 'status') this.log(`${this.sn}: ${env?.message ?? `HTTP ${res.status}`}`);
        this.up = false;
        // Wrong SN or secret (60204): retrying cannot help.
        if (env?.code === ErrorCode.BAD_CREDENTIALS) this.refused = true;
        this.counters.errors++;
        return;
      }
      this.up = true;
      if (counted) this.counters.acked++;
      // Commands come back in the answer: act on them and acknowledge.
      for (const cmd of env.data?.commands ?? []) {
        const ack = this.model.command(cmd, Date.now());
        if (!ack) continue;
        this.counters.commands++;
        void this.post({ kind: 'ack', body: ack });
        download(this.model, this.device, cmd, ack, this.consoleOrigin, this.log);
      }
    } catch (err) {
      if (this.up) this.log(`${this.sn}: ${(err as Error).message}`);
      this.up = false;
      this.counters.errors++;
    } finally {
      this.inflight--;
      httpInflight--;
    }
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    if (this.up) await this.post({ kind: 'status', body: { ts: Date.now(), online: false } });
    this.up = false;
  }
}
