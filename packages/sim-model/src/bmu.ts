import {
  COMMAND_LIMITS,
  EARTH_RADIUS_M,
  commandPayloadSchema,
  isCommandKind,
  type AckMessage,
  type CommandPayload,
  type DeviceAlarmMessage,
  type FenceAction,
  type GpsMessage,
  type StatusMessage,
  type TelemetryMessage,
  type UpgradeTarget,
} from '@iot/contract';
import { createRng, seedOf, type Rng } from './rng.js';
import { makeRoute, positionOn, type LngLat, type Route } from './route.js';

/**
 * A simulated battery management unit: a 16-cell LiFePO4 pack that idles, charges and
 * discharges in cycles, heats with its current, ages, drives along city streets while it
 * discharges (a vehicle battery), and now and then trips a fault (a cell over-voltage or
 * over-temperature) that it reports as a device alarm and recovers from. Pure: no timers and no
 * I/O; the caller passes the time, so the same seed and times give the same messages.
 *
 * The semaphore ids are the built-in battery type's (apps/server/src/db/seed/bmu.ts).
 */
export const BMU_IDS = {
  packVoltage: '01111001',
  current: '01112001',
  soc: '02109001',
  soh: '02110001',
  cellCount: '01116001',
  state: '10000006',
  batteryState: '01121001',
  signal: '02105001',
  lng: '02111001',
  lat: '02112001',
  totalCharge: '02117001',
  totalDischarge: '02116001',
  energyUsed: '02120001',
  maxCellVoltage: '10000013',
  minCellVoltage: '10000014',
  boardTemp: '01118001',
  ambientTemp: '01120001',
  chargeSwitch: '10000030',
  dischargeSwitch: '10000031',
} as const;

/** Cell `i` (1-based) voltage and temperature sensor ids: the last three digits index them (the field's convention). */
export const cellVoltageId = (i: number) => `01117${String(i).padStart(3, '0')}`;
export const cellTempId = (i: number) => `01119${String(i).padStart(3, '0')}`;

export const CELLS = 16;
export const CELL_TEMPS = 4;

/** The type's state enum (10000006). */
export const BmuState = { idle: 0, charging: 1, discharging: 2, fault: 3 } as const;
export type BmuState = (typeof BmuState)[keyof typeof BmuState];

/** The field's battery state enum (01121001): 0 moving, 1 static, 2 storage, 3 sleep. */
export const FieldBatteryState = { moving: 0, static: 1, storage: 2, sleep: 3 } as const;

/** Writable parameters a `setParams` command may change. */
export const WRITABLE = [BMU_IDS.chargeSwitch, BMU_IDS.dischargeSwitch] as const;

/** The firmware a simulated device starts with. */
export const SIM_FIRMWARE = 'sim-1.0';
/**
 * Simulated seconds a firmware upgrade takes (download, check, install): with a `timeScale` it
 * passes faster. The device reports `progress` at the start and at each of UPGRADE_STEPS, then `ok`.
 */
export const UPGRADE_SECONDS = 40;
export const UPGRADE_STEPS = [25, 50, 75] as const;
/** Command ids whose answers the device remembers: delivery is at least once, it acts on an id once. */
const REMEMBERED_COMMANDS = 256;

/** A cell above this is over-voltage (the type's alarm rule is > 3.65 V). */
export const CELL_OVER_VOLTAGE = 3.65;
/** A cell sensor above this is over-temperature (the rule: outside −20…55 °C). */
export const CELL_OVER_TEMP = 55;

export interface BmuOptions {
  sn: string;
  /** Start time, epoch ms. */
  now: number;
  /** Default: derived from the SN. */
  seed?: number;
  /** Drives along a route and sends GPS fixes (types that record tracks). Default true. */
  track?: boolean;
  /** City centre the routes go round, [lng, lat]. */
  centre?: LngLat;
  /** Faults per hour of simulated time while charging or discharging. Default 0.5. */
  faultsPerHour?: number;
  /** Simulated seconds per real second (1: real time). */
  timeScale?: number;
  /**
   * Real ms after keeping a geo-fence that the device wanders out of it (`wanderOut`), so a demo
   * shows a breach. Undefined: it leaves only when told to.
   */
  wanderOutAfterMs?: number;
  /**
   * Share of upgrades that fail at installation ("install failed: flash write error") and that go
   * silent (nothing answered, nothing done: the console's stage timeout and retries take over),
   * drawn per upgrade command from the SN's seed. Default 0.
   */
  upgradeFailRate?: number;
  upgradeSilentRate?: number;
  /**
   * The runtime fetches the image itself (the simulator; not the in-process demo): an upgrade stays
   * at downloading until `downloaded` says how the download ended.
   */
  downloads?: boolean;
}

/** One message a device sends, on `dev/<sn>/<kind>` or `POST /api/v1/ingest/<kind>`. */
export type Uplink =
  | { kind: 'telemetry'; body: TelemetryMessage }
  | { kind: 'gps'; body: GpsMessage }
  | { kind: 'alarm'; body: DeviceAlarmMessage }
  | { kind: 'status'; body: StatusMessage }
  | { kind: 'ack'; body: AckMessage };

interface Fault {
  kind: 'overVoltage' | 'overTemp';
  /** 1-based cell or sensor index. */
  index: number;
  /** The reading while the fault lasts. */
  value: number;
  /** Simulated ms when it clears. */
  until: number;
}

/** A geo-fence the device keeps (`fenceSet`); `armed` again after `fenceRelock`. */
export interface SimFence {
  fenceId: string;
  lng: number;
  lat: number;
  radius: number;
  action: FenceAction;
  armed: boolean;
}

/** The firmware upgrade under way. */
interface Upgrade {
  /** The command's id: its progress and end are answers to it. */
  id: string;
  versionId: number;
  softwareVersion: string;
  target: UpgradeTarget;
  /** Simulated ms it started. */
  started: number;
  /** The last progress reported. */
  reported: number;
  /** The download the runtime does: waited for, then its end (undefined: simulated). */
  download?: 'waiting' | 'done';
  /** This one fails at installation (drawn when it started). */
  fails: boolean;
}

/** Beijing, Tian'anmen: the default city (the protocol examples use it too). */
export const DEFAULT_CENTRE: LngLat = [116.397, 39.909];

/** Open-circuit voltage of a LiFePO4 cell by state of charge: the long flat plateau of the chemistry. */
const OCV: [number, number][] = [
  [0, 2.9],
  [5, 3.1],
  [10, 3.2],
  [20, 3.24],
  [30, 3.26],
  [40, 3.275],
  [50, 3.285],
  [60, 3.295],
  [70, 3.31],
  [80, 3.325],
  [90, 3.335],
  [95, 3.35],
  [100, 3.38],
];

export function ocv(soc: number): number {
  const s = Math.min(100, Math.max(0, soc));
  for (let i = 1; i < OCV.length; i++) {
    const [s1, v1] = OCV[i]!;
    const [s0, v0] = OCV[i - 1]!;
    if (s <= s1) return v0 + ((v1 - v0) * (s - s0)) / (s1 - s0);
  }
  return OCV[OCV.length - 1]![1];
}

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Longest integration step in simulated seconds (longer gaps are split). */
const STEP_S = 5;
/** Cell internal resistance in ohms for a 100 Ah cell; smaller cells have more. */
const R_100AH = 0.0009;

export class BmuModel {
  readonly sn: string;
  readonly track: boolean;
  readonly capacityAh: number;
  readonly route: Route;
  readonly centre: LngLat;

  private readonly rng: Rng;
  private readonly timeScale: number;
  private readonly faultsPerHour: number;
  /** Real and simulated clocks, epoch ms. */
  private real: number;
  private sim: number;

  private _state: BmuState;
  /** End of an idle or fault period (simulated ms), or the SOC a charge/discharge stops at. */
  private idleUntil = 0;
  private targetSoc = 0;
  private soc: number;
  private soh: number;
  private current = 0;
  /** Mean current of the present charge or trip (A, signed). */
  private mean = 0;
  private readonly cellOffset: number[];
  private readonly tempOffset: number[];
  private cellTemp: number;
  private boardTemp: number;
  private readonly ambientBase: number;
  private chargeAh: number;
  private dischargeAh: number;
  private energyKwh: number;
  private chargeOn = true;
  private dischargeOn = true;
  private fault: Fault | undefined;
  private signal: number;
  private along: number;
  private speed = 0;
  private fixDue = true;
  private slot = 0;
  private readonly pending: DeviceAlarmMessage[] = [];
  /** Acknowledgements and status messages to send before anything else. */
  private readonly outbox: Uplink[] = [];
  /** The last answer to each recent command id. */
  private readonly answers = new Map<string, AckMessage>();
  private readonly firmware: Record<UpgradeTarget, string | undefined> = { device: SIM_FIRMWARE, external: undefined };
  private upgrade: Upgrade | undefined;
  /** Draws of upgrade outcomes, apart from the telemetry's so an upgrade does not change the data that follows. */
  private readonly upgradeRng: Rng;
  private readonly upgradeFailRate: number;
  private readonly upgradeSilentRate: number;
  private readonly downloads: boolean;
  private readonly fences = new Map<string, SimFence>();
  private whitelist: string[] = [];
  private readonly wanderOutAfterMs: number | undefined;
  /** Real ms at which it wanders out of its fence; where it stands once it has. */
  private wanderAt: number | undefined;
  private wandered: LngLat | undefined;

  constructor(opts: BmuOptions) {
    this.sn = opts.sn;
    this.rng = createRng(opts.seed ?? seedOf(opts.sn));
    const rng = this.rng;
    this.track = opts.track ?? true;
    this.timeScale = opts.timeScale ?? 1;
    this.faultsPerHour = opts.faultsPerHour ?? 0.5;
    this.wanderOutAfterMs = opts.wanderOutAfterMs;
    this.upgradeRng = createRng(((opts.seed ?? seedOf(opts.sn)) ^ 0x5eed) >>> 0);
    this.upgradeFailRate = opts.upgradeFailRate ?? 0;
    this.upgradeSilentRate = opts.upgradeSilentRate ?? 0;
    this.downloads = opts.downloads ?? false;
    this.real = opts.now;
    this.sim = opts.now;
    this.centre = opts.centre ?? DEFAULT_CENTRE;
    this.route = makeRoute(rng, { centre: this.centre, gridAngle: 8 });
    this.along = rng.between(0, this.route.length);

    this.capacityAh = rng.pick([50, 80, 100, 105]);
    this.soh = rng.between(88, 99.5);
    this.soc = rng.between(20, 95);
    this.cellOffset = Array.from({ length: CELLS }, () => rng.normal() * 0.006);
    this.tempOffset = Array.from({ length: CELL_TEMPS }, () => rng.normal() * 0.6);
    this.ambientBase = rng.between(16, 26);
    this.cellTemp = this.ambient() + rng.between(0, 4);
    this.boardTemp = this.cellTemp + 3;
    const cycles = rng.between(20, 600);
    this.dischargeAh = cycles * this.capacityAh;
    this.chargeAh = this.dischargeAh * 1.02;
    this.energyKwh = (this.dischargeAh * 3.2 * CELLS) / 1000;
    this.signal = rng.int(-100, -60);

    const r = rng.next();
    this._state = BmuState.idle;
    if (r < 0.35) this.startCharge();
    else if (r < 0.75) this.startDischarge();
    else this.startIdle();
  }

  get state(): BmuState {
    return this._state;
  }

  /** The values a test or a screen may want without a message. */
  get snapshot() {
    return {
      state: this._state,
      soc: this.soc,
      soh: this.soh,
      current: this.current,
      capacityAh: this.capacityAh,
      chargeSwitch: this.chargeOn,
      dischargeSwitch: this.dischargeOn,
      fault: this.fault ? { ...this.fault } : undefined,
      speed: this.speed,
      firmware: { ...this.firmware },
      upgrade: this.upgrade ? { versionId: this.upgrade.versionId, softwareVersion: this.upgrade.softwareVersion, target: this.upgrade.target, progress: this.upgrade.reported } : undefined,
      fences: [...this.fences.values()].map((f) => ({ ...f })),
      whitelist: [...this.whitelist],
      /** Where it went when it wandered out of its fence (undefined: on its route). */
      wandered: this.wandered ? ([...this.wandered] as LngLat) : undefined,
    };
  }

  /** Advances the pack to real time `now` (epoch ms); time never runs backwards. */
  advance(now: number): void {
    if (now <= this.real) return;
    let dt = ((now - this.real) / 1000) * this.timeScale;
    this.real = now;
    while (dt > 0) {
      const step = Math.min(STEP_S, dt);
      this.step(step);
      dt -= step;
    }
  }

  /**
   * The next message of this device at `now`: an acknowledgement of long work (a firmware
   * upgrade's progress and end) or a status after it first, then a pending alarm (start or end of
   * a fault), else, on a device that records its track, a GPS fix every other message while the
   * position changes, else telemetry. Every call is one message, so a sender controls the rate
   * exactly.
   */
  next(now: number): Uplink {
    this.advance(now);
    this.upgradeProgress(now);
    if (this.wanderAt !== undefined && now >= this.wanderAt) {
      this.wanderAt = undefined;
      this.wanderOut();
    }
    const out = this.outbox.shift();
    if (out) return out;
    const alarm = this.pending.shift();
    if (alarm) return { kind: 'alarm', body: alarm };
    this.slot++;
    if (this.track && this.fixDue && this.slot % 2 === 0) return { kind: 'gps', body: this.gps(now) };
    return { kind: 'telemetry', body: this.telemetry(now) };
  }

  /** Every parameter of the type, as a telemetry message. */
  telemetry(now: number): TelemetryMessage {
    this.advance(now);
    const cells = this.cellVoltages();
    const temps = this.cellTemps();
    const [lng, lat] = this.position().at;
    const values: Record<string, number | string | boolean> = {
      [BMU_IDS.packVoltage]: round(cells.reduce((a, b) => a + b, 0), 2),
      [BMU_IDS.current]: round(this.current, 2),
      [BMU_IDS.soc]: round(this.soc, 1),
      [BMU_IDS.soh]: round(this.soh, 1),
      [BMU_IDS.cellCount]: CELLS,
      [BMU_IDS.state]: String(this._state),
      // The field's battery state: 0 moving (driving while it discharges), 1 static.
      [BMU_IDS.batteryState]: String(this.speed > 0 ? FieldBatteryState.moving : FieldBatteryState.static),
      [BMU_IDS.maxCellVoltage]: Math.max(...cells),
      [BMU_IDS.minCellVoltage]: Math.min(...cells),
    };
    cells.forEach((v, i) => (values[cellVoltageId(i + 1)] = v));
    temps.forEach((v, i) => (values[cellTempId(i + 1)] = v));
    values[BMU_IDS.boardTemp] = round(this.boardTemp, 1);
    values[BMU_IDS.ambientTemp] = round(this.ambient(), 1);
    values[BMU_IDS.signal] = this.signal;
    values[BMU_IDS.lng] = round(lng, 6);
    values[BMU_IDS.lat] = round(lat, 6);
    values[BMU_IDS.totalCharge] = round(this.chargeAh, 1);
    values[BMU_IDS.totalDischarge] = round(this.dischargeAh, 1);
    values[BMU_IDS.energyUsed] = round(this.energyKwh, 2);
    values[BMU_IDS.chargeSwitch] = this.chargeOn;
    values[BMU_IDS.dischargeSwitch] = this.dischargeOn;
    return { ts: now, values };
  }

  /** The position now: moving along the route while discharging, parked otherwise. */
  gps(now: number): GpsMessage {
    this.advance(now);
    const { at, direction } = this.position();
    this.fixDue = this.speed > 0;
    return {
      ts: now,
      lng: round(at[0], 6),
      lat: round(at[1], 6),
      speed: round(this.speed * 3.6, 1),
      direction: Math.round(direction) % 360,
      pdop: round(1 + this.rng.next() * 1.2, 1),
      satellites: this.rng.int(7, 14),
    };
  }

  /** `{"online":true,...}` sent after connecting. */
  status(now: number): StatusMessage {
    const info: Record<string, string | number> = { firmware: this.firmware.device ?? SIM_FIRMWARE, cells: CELLS, capacityAh: this.capacityAh };
    if (this.firmware.external) info.externalFirmware = this.firmware.external;
    return { ts: now, online: true, info };
  }

  /**
   * Answers a command from `dev/<sn>/cmd` (or an HTTP uplink answer), as docs/PROTOCOL.md
   * "Command kinds" asks: `setParams` applies the writable switches (10000030 charge, 10000031
   * discharge) all or nothing; fences are kept (`fenceSet` adds or replaces, `fenceClose` removes,
   * `fenceRelock` arms a fence it has again); `whitelist` changes the voice whitelist (at most 20
   * numbers); `firmwareUpgrade` answers `progress` 0 and goes on in the background (progress and
   * the end come out of `next`); `firmwareCancel` stops it. A command past its `expiresAt`, of an
   * unknown kind or with a payload its kind's schema refuses is refused with an error ack. A
   * command id answered before is answered again the same way (the upgrade: its progress now),
   * not acted on twice. Undefined: not a command (nothing to answer).
   */
  command(raw: unknown, now: number): AckMessage | undefined {
    this.advance(now);
    if (typeof raw !== 'object' || raw === null) return undefined;
    const cmd = raw as { id?: unknown; kind?: unknown; payload?: unknown; expiresAt?: unknown };
    if (typeof cmd.id !== 'string' || cmd.id === '') return undefined;
    const id = cmd.id.slice(0, 64);
    const known = this.answers.get(id);
    if (known) return known;
    // A device gone silent on an upgrade answers nothing and does nothing (drawn once per id).
    if (cmd.kind === 'firmwareUpgrade' && !this.upgrade && this.silenced(id)) return undefined;
    return this.answer(this.act(id, cmd, now));
  }

  private act(id: string, cmd: { kind?: unknown; payload?: unknown; expiresAt?: unknown }, now: number): AckMessage {
    const error = (message: string): AckMessage => ({ id, result: 'error', message: message.slice(0, 256) });
    const ok = (message?: string): AckMessage => (message ? { id, result: 'ok', message } : { id, result: 'ok' });
    if (typeof cmd.expiresAt === 'number' && cmd.expiresAt < now) return error('expired');
    if (!isCommandKind(cmd.kind)) return error(`unknown command kind: ${String(cmd.kind)}`);
    if (cmd.kind === 'setParams') return this.setParams(cmd.payload, ok, error);
    const parsed = commandPayloadSchema(cmd.kind).safeParse(cmd.payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return error(`${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
    }
    switch (cmd.kind) {
      case 'fenceSet': {
        const p = parsed.data as CommandPayload<'fenceSet'>;
        this.fences.set(p.fenceId, { ...p, armed: true });
        if (this.wanderOutAfterMs !== undefined) this.wanderAt = now + this.wanderOutAfterMs;
        return ok();
      }
      case 'fenceClose':
        this.fences.delete((parsed.data as CommandPayload<'fenceClose'>).fenceId);
        return ok();
      case 'fenceRelock': {
        const { fenceId } = parsed.data as CommandPayload<'fenceRelock'>;
        const fence = this.fences.get(fenceId);
        if (!fence) return error(`unknown fence: ${fenceId}`);
        fence.armed = true;
        return ok();
      }
      case 'whitelist': {
        const { op, numbers } = parsed.data as CommandPayload<'whitelist'>;
        const next = op === 'set' ? [...numbers] : op === 'add' ? [...new Set([...this.whitelist, ...numbers])] : this.whitelist.filter((n) => !numbers.includes(n));
        if (next.length > COMMAND_LIMITS.whitelistNumbers) return error(`whitelist full: at most ${COMMAND_LIMITS.whitelistNumbers} numbers`);
        this.whitelist = next;
        return ok();
      }
      case 'firmwareUpgrade': {
        const p = parsed.data as CommandPayload<'firmwareUpgrade'>;
        if (this.upgrade) return error(`busy: upgrading to ${this.upgrade.softwareVersion}`);
        if (this.firmware[p.target] === p.softwareVersion) return ok(`already on ${p.softwareVersion}`);
        this.upgrade = {
          id,
          versionId: p.versionId,
          softwareVersion: p.softwareVersion,
          target: p.target,
          started: this.sim,
          reported: 0,
          download: this.downloads ? 'waiting' : undefined,
          fails: this.upgradeRng.next() < this.upgradeFailRate,
        };
        return { id, result: 'progress', progress: 0, message: 'downloading' };
      }
      case 'firmwareCancel': {
        const { versionId } = parsed.data as CommandPayload<'firmwareCancel'>;
        const running = this.upgrade;
        if (!running || running.versionId !== versionId) return ok('no upgrade of this version running');
        this.upgrade = undefined;
        this.outbox.push({ kind: 'ack', body: this.answer({ id: running.id, result: 'error', message: 'cancelled' }) });
        return ok();
      }
    }
  }

  private setParams(payload: unknown, ok: () => AckMessage, error: (message: string) => AckMessage): AckMessage {
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      return error('payload must map semaphore ids to values');
    }
    const changes: [string, boolean][] = [];
    for (const [key, value] of Object.entries(payload)) {
      if (!(WRITABLE as readonly string[]).includes(key)) return error(`not writable: ${key}`);
      const b = value === true || value === 1 || value === 'true' || value === '1' ? true : value === false || value === 0 || value === 'false' || value === '0' ? false : undefined;
      if (b === undefined) return error(`${key}: a boolean is expected`);
      changes.push([key, b]);
    }
    if (changes.length === 0) return error('nothing to set');
    for (const [key, on] of changes) {
      if (key === BMU_IDS.chargeSwitch) this.chargeOn = on;
      else this.dischargeOn = on;
    }
    // A switch turned off stops what it powers at once.
    if ((this._state === BmuState.charging && !this.chargeOn) || (this._state === BmuState.discharging && !this.dischargeOn)) {
      this.startIdle();
      this.current = this.idleCurrent();
    }
    return ok();
  }

  /** Remembers the latest answer to a command id (the oldest forgotten first) and returns it. */
  private answer(ack: AckMessage): AckMessage {
    this.answers.delete(ack.id);
    this.answers.set(ack.id, ack);
    if (this.answers.size > REMEMBERED_COMMANDS) this.answers.delete(this.answers.keys().next().value!);
    return ack;
  }

  /**
   * The upgrade under way, by simulated time: the highest step passed since the last report as a
   * `progress` ack, or at the end `ok`, and a status with the new firmware (the device restarted on it).
   */
  private upgradeProgress(now: number) {
    const u = this.upgrade;
    if (!u || u.download === 'waiting') return;
    const percent = ((this.sim - u.started) / 1000 / UPGRADE_SECONDS) * 100;
    if (u.fails && percent >= 75) {
      this.upgrade = undefined;
      this.outbox.push({ kind: 'ack', body: this.answer({ id: u.id, result: 'error', message: 'install failed: flash write error' }) });
      return;
    }
    if (percent >= 100) {
      this.upgrade = undefined;
      this.firmware[u.target] = u.softwareVersion;
      this.outbox.push({ kind: 'ack', body: this.answer({ id: u.id, result: 'ok' }) });
      this.outbox.push({ kind: 'status', body: this.status(now) });
      return;
    }
    const step = [...UPGRADE_STEPS].reverse().find((x) => x <= percent);
    if (step !== undefined && step > u.reported) {
      u.reported = step;
      this.outbox.push({ kind: 'ack', body: this.answer({ id: u.id, result: 'progress', progress: step, message: step > 50 ? 'installing' : 'downloading' }) });
    }
  }

  /** Draws whether the upgrade of command `id` goes silent (once per id: a resend is silent again). */
  private readonly silent = new Map<string, boolean>();
  private silenced(id: string): boolean {
    let s = this.silent.get(id);
    if (s === undefined) {
      s = this.upgradeSilentRate > 0 && this.upgradeRng.next() < this.upgradeSilentRate;
      this.silent.set(id, s);
      if (this.silent.size > REMEMBERED_COMMANDS) this.silent.delete(this.silent.keys().next().value!);
    }
    return s;
  }

  /**
   * The runtime's download ended: `percent` while it goes on (a progress ack, at most 50), or its end:
   * an error (`"sha256 mismatch"`, `"download failed: 404"`) fails the upgrade; done, it installs.
   */
  downloaded(id: string, now: number, result: { percent: number } | { error: string } | 'done'): void {
    this.advance(now);
    const u = this.upgrade;
    if (!u || u.id !== id || u.download !== 'waiting') return;
    if (result === 'done') {
      u.download = 'done';
      // Installation takes the second half of the upgrade's time.
      u.started = this.sim - (UPGRADE_SECONDS * 1000) / 2;
      u.reported = Math.max(u.reported, 50);
      this.outbox.push({ kind: 'ack', body: this.answer({ id, result: 'progress', progress: 50, message: 'downloading' }) });
    } else if ('error' in result) {
      this.upgrade = undefined;
      this.outbox.push({ kind: 'ack', body: this.answer({ id, result: 'error', message: result.error.slice(0, 256) }) });
    } else {
      const step = Math.min(49, Math.floor(result.percent / 2));
      if (step >= u.reported + 10) {
        u.reported = step;
        this.outbox.push({ kind: 'ack', body: this.answer({ id, result: 'progress', progress: step, message: 'downloading' }) });
      }
    }
  }

  /**
   * Leaves its (first) geo-fence: the device stands due east of the fence's centre, half a radius
   * (at least 100 m) beyond its border, and sends a GPS fix from there next; it stays there until
   * `wanderBack`. Returns where it went, or undefined when it keeps no fence.
   */
  wanderOut(): LngLat | undefined {
    const fences = [...this.fences.values()];
    const fence = fences.find((f) => f.armed) ?? fences[0];
    if (!fence) return undefined;
    const metres = fence.radius + Math.max(100, fence.radius / 2);
    const perDegree = ((EARTH_RADIUS_M * Math.PI) / 180) * Math.max(0.01, Math.cos((fence.lat * Math.PI) / 180));
    const lng = fence.lng + metres / perDegree;
    this.wandered = [lng > 180 ? lng - 360 : lng, fence.lat];
    this.fixDue = true;
    return this.wandered;
  }

  /** Back on its route (the next fix is sent from there). */
  wanderBack(): void {
    this.wandered = undefined;
    this.fixDue = true;
  }

  // ---- physics ----------------------------------------------------------------------------------

  private step(dt: number) {
    const rng = this.rng;
    this.sim += dt * 1000;
    this.transitions();

    // Current by state: positive charges, negative discharges.
    const c = this.capacityAh;
    switch (this._state) {
      case BmuState.charging: {
        // Constant current, tapering (constant voltage) over the last 10 %.
        const taper = this.soc > 90 ? clamp((100 - this.soc) / 10, 0.1, 1) : 1;
        this.current = Math.max(0.5, this.mean * taper * (1 + rng.normal() * 0.01));
        break;
      }
      case BmuState.discharging:
        // A drive: the draw wanders round the trip's mean (hills, traffic).
        this.current = clamp(this.current + (this.mean - this.current) * 0.2 + rng.normal() * 0.04 * Math.abs(this.mean), -1.5 * c, -0.05 * c);
        break;
      case BmuState.fault:
        this.current = 0;
        break;
      default:
        this.current = this.idleCurrent();
    }

    const ah = (this.current * dt) / 3600;
    const usable = c * (this.soh / 100);
    this.soc = clamp(this.soc + (ah / usable) * 100, 0, 100);
    if (ah > 0) this.chargeAh += ah;
    else {
      this.dischargeAh -= ah;
      this.energyKwh += (-ah * this.packOcv()) / 1000;
    }
    // Ageing: about 0.02 % of health per equivalent full cycle.
    this.soh = Math.max(60, this.soh - (0.02 * Math.abs(ah)) / (2 * c));

    // Heat: cells warm with the square of the current and cool towards ambient (time constant 10 min).
    const target = this.ambient() + 1 + 25 * (this.current / c) ** 2;
    const k = 1 - Math.exp(-dt / 600);
    this.cellTemp += (target - this.cellTemp) * k;
    this.boardTemp += (this.ambient() + 4 + 0.4 * (this.cellTemp - this.ambient()) - this.boardTemp) * k;

    // Driving while discharging (a vehicle battery); parked while charging or idle.
    if (this.track && this._state === BmuState.discharging) {
      const v = clamp(4 + (-this.current / c) * 22 + rng.normal() * 0.8, 2, 17); // m/s
      this.speed = v;
      this.along += v * dt;
      this.fixDue = true;
    } else {
      this.speed = 0;
    }

    if (rng.chance(dt / 60)) this.signal = clamp(this.signal + rng.int(-3, 3), -113, -55);

    // Faults trip while current flows and clear by themselves.
    if (!this.fault && this._state !== BmuState.idle && rng.chance((this.faultsPerHour * dt) / 3600)) this.trip();
  }

  private transitions() {
    const rng = this.rng;
    switch (this._state) {
      case BmuState.idle:
        if (this.sim >= this.idleUntil) {
          const canCharge = this.chargeOn && this.soc < 97;
          const canDischarge = this.dischargeOn && this.soc > 15;
          if (canCharge && (this.soc < 35 || !canDischarge || (this.soc < 70 && rng.chance(0.5)))) this.startCharge();
          else if (canDischarge) this.startDischarge();
          else this.startIdle();
        }
        break;
      case BmuState.charging:
        if (this.soc >= this.targetSoc || !this.chargeOn) this.startIdle();
        break;
      case BmuState.discharging:
        if (this.soc <= this.targetSoc || !this.dischargeOn) this.startIdle();
        break;
      case BmuState.fault:
        if (this.fault && this.sim >= this.fault.until) this.recover();
        break;
    }
  }

  private startIdle() {
    this._state = BmuState.idle;
    this.idleUntil = this.sim + this.rng.between(120, 900) * 1000;
  }

  private startCharge() {
    this._state = BmuState.charging;
    this.targetSoc = Math.min(100, this.rng.between(Math.max(85, this.soc + 5), 100));
    this.mean = this.capacityAh * this.rng.between(0.25, 0.5);
    this.current = this.mean;
  }

  private startDischarge() {
    this._state = BmuState.discharging;
    this.targetSoc = this.rng.between(8, Math.max(8, Math.min(35, this.soc - 10)));
    this.mean = -this.capacityAh * this.rng.between(0.15, 0.6);
    this.current = this.mean;
  }

  private idleCurrent() {
    return -0.12 + this.rng.normal() * 0.03;
  }

  private trip() {
    const rng = this.rng;
    const overVoltage = this._state === BmuState.charging && rng.chance(0.6);
    const fault: Fault = overVoltage
      ? { kind: 'overVoltage', index: rng.int(1, CELLS), value: round(rng.between(3.66, 3.75), 3), until: 0 }
      : { kind: 'overTemp', index: rng.int(1, CELL_TEMPS), value: round(rng.between(57, 68), 1), until: 0 };
    fault.until = this.sim + rng.between(45, 180) * 1000;
    this.fault = fault;
    this._state = BmuState.fault;
    this.current = 0;
    // Severe on the console's scale (4 the most severe): an over-voltage cell stops the pack, an
    // overheating one needs attention now.
    this.pending.push({ ts: this.real, id: this.faultId(fault), flag: 1, value: fault.value, level: fault.kind === 'overVoltage' ? 4 : 3 });
  }

  private recover() {
    const fault = this.fault!;
    this.fault = undefined;
    this.startIdle();
    const normal = fault.kind === 'overVoltage' ? this.cellVoltages()[fault.index - 1]! : this.cellTemps()[fault.index - 1]!;
    this.pending.push({ ts: this.real, id: this.faultId(fault), flag: 0, value: normal });
  }

  private faultId(f: Fault) {
    return f.kind === 'overVoltage' ? cellVoltageId(f.index) : cellTempId(f.index);
  }

  /** Ambient air: a daily swing of ±4 °C round the device's climate, warmest mid-afternoon local time. */
  private ambient() {
    const hours = (this.sim / 3_600_000 + this.centre[0] / 15) % 24;
    return this.ambientBase + 4 * Math.sin((2 * Math.PI * (hours - 9)) / 24);
  }

  private packOcv() {
    return ocv(this.soc) * CELLS;
  }

  /** Cell voltages in V (3 decimals): open-circuit voltage, the cell's imbalance and its I·R drop or rise. */
  private cellVoltages(): number[] {
    const r = (R_100AH * 100) / this.capacityAh;
    const base = ocv(this.soc) + this.current * r;
    return this.cellOffset.map((off, i) => {
      if (this.fault?.kind === 'overVoltage' && this.fault.index === i + 1) return this.fault.value;
      return round(clamp(base + off + this.rng.normal() * 0.0015, 2.9, 3.6), 3);
    });
  }

  private cellTemps(): number[] {
    return this.tempOffset.map((off, i) => {
      if (this.fault?.kind === 'overTemp' && this.fault.index === i + 1) return this.fault.value;
      return round(clamp(this.cellTemp + off, -20, CELL_OVER_TEMP - 1), 1);
    });
  }

  private position() {
    if (this.wandered) return { at: this.wandered, direction: 90 };
    if (!this.track) return { at: this.route.points[0]!, direction: 0 };
    return positionOn(this.route, this.along);
  }
}
