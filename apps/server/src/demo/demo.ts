import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Command } from '@iot/contract';
import { BmuModel, DEFAULT_CENTRE, type LngLat } from '@iot/sim-model';
import type { Db } from '../db/client.js';
import type { CommandService, Downlink } from '../telemetry/commands.js';
import type { IngestDevice, IngestService } from '../telemetry/ingest.service.js';
import { hashToken } from '../lib/tokens.js';
// Exemption from the one-way imports (eslint.config.js): the demo writes its project and 50 devices
// straight through the two repositories, in one transaction under an advisory lock so that several
// instances on one PostgreSQL create it once. The services cannot do that: each create is its own
// transaction, audited for an acting user, and the demo has no user acting.
// eslint-disable-next-line no-restricted-imports -- see above
import { insertDevices } from '../modules/device/device.repo.js';
// eslint-disable-next-line no-restricted-imports -- see above
import { insertProject } from '../modules/project/project.repo.js';
import * as repo from './demo.repo.js';

export const DEMO_PROJECT = 'Demo fleet';
export const DEMO_SN_PREFIX = 'DEMO-';

export interface DemoOptions {
  /**
   * `on`: create the demo fleet if it is missing, then run it. `auto` (DEMO unset on embedded
   * PGlite): create it only on an empty registry (no device, no project); a demo fleet created
   * earlier runs again as long as its project exists.
   */
  mode: 'on' | 'auto';
  /** Owner of the demo project (the configured super administrator). */
  adminUsername: string;
  /** Devices created the first time. */
  devices?: number;
  /** Each device sends one message every this many ms (a random time in the range). */
  intervalMs?: [number, number];
  centre?: LngLat;
  /** Simulated seconds per real second. */
  timeScale?: number;
  faultsPerHour?: number;
}

export interface DemoDeps {
  db: Db;
  ingest: IngestService;
  log: FastifyBaseLogger;
  /** The command channel: demo devices answer commands too (start the demo after the broker). */
  commands?: CommandService;
}

interface Member {
  device: IngestDevice;
  model: BmuModel;
  due: number;
  busy: Promise<unknown> | undefined;
}

/**
 * The demo fleet: simulated battery management units streaming from inside the server. Their
 * messages go through the real ingestion path (`IngestService.uplink`), so values land in the
 * database and reach the live channel exactly as a real device's would; they do not use the
 * network. The devices are ordinary registry entries of the project "Demo fleet": deleting them
 * (or the DEMO=off setting) ends the demo.
 */
export class DemoFleet {
  private readonly members: Member[];
  private timer: NodeJS.Timeout | undefined;
  private checkTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly interval: [number, number];
  /** The downlink the demo's took over from (the broker's), for the other devices. */
  private next: Downlink | undefined;
  private readonly answers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly deps: DemoDeps,
    readonly projectId: number,
    devices: IngestDevice[],
    opts: { track: boolean; centre: LngLat; intervalMs?: [number, number]; timeScale?: number; faultsPerHour?: number },
    /** Secrets of devices created by this start (kept in memory only; the registry has their hashes). */
    readonly secrets: ReadonlyMap<string, string> = new Map(),
  ) {
    this.interval = opts.intervalMs ?? [5000, 10_000];
    const now = Date.now();
    this.members = devices.map((device) => ({
      device,
      model: new BmuModel({ sn: device.sn, now, track: opts.track, centre: opts.centre, timeScale: opts.timeScale, faultsPerHour: opts.faultsPerHour }),
      // Spread over the first interval so the fleet does not speak in chorus.
      due: now + Math.random() * this.interval[1],
      busy: undefined,
    }));
  }

  get size(): number {
    return this.members.length;
  }

  get devices(): IngestDevice[] {
    return this.members.map((m) => m.device);
  }

  /** Marks the devices online (as a device's connection does) and starts the messages. */
  async start(): Promise<void> {
    await Promise.all(this.members.map((m) => this.deps.ingest.connected(m.device, { via: 'demo' })));
    const commands = this.deps.commands;
    if (commands) {
      this.next = commands.setDownlink((sn, command) => this.downlink(sn, command));
      // Commands that waited while the server was down.
      for (const m of this.members) await commands.deliverPending(m.device);
    }
    const tick = Math.max(20, Math.min(500, Math.floor(this.interval[0] / 4)));
    this.timer = setInterval(() => this.tick(), tick);
    this.timer.unref();
    // Devices deleted in the console leave the demo.
    this.checkTimer = setInterval(() => void this.prune().catch((err: unknown) => this.deps.log.warn({ err }, 'demo: device check failed')), 15_000);
    this.checkTimer.unref();
  }

  private tick() {
    const now = Date.now();
    const [lo, hi] = this.interval;
    for (const m of this.members) {
      if (m.busy || now < m.due) continue;
      m.due = Math.max(m.due + lo + Math.random() * (hi - lo), now);
      const msg = m.model.next(now);
      m.busy = this.deps.ingest
        .uplink(m.device, msg.kind, msg.body, undefined, { via: 'demo' })
        .catch((err: unknown) => this.deps.log.warn({ err, sn: m.device.sn }, 'demo: message not stored'))
        .finally(() => (m.busy = undefined));
    }
  }

  /**
   * A command for a demo device: the simulated device answers it a moment later through the
   * ingestion path, as a real one acknowledges on `dev/<sn>/ack`. Other devices' commands go on
   * to the broker.
   */
  private async downlink(sn: string, command: Command): Promise<boolean> {
    const m = this.stopped ? undefined : this.members.find((x) => x.device.sn === sn);
    if (!m) return this.next ? this.next(sn, command) : false;
    const ack = m.model.command(command, Date.now());
    if (ack) {
      const timer = setTimeout(() => {
        this.answers.delete(timer);
        void this.deps.ingest.uplink(m.device, 'ack', ack, undefined, { via: 'demo' }).catch((err: unknown) => this.deps.log.warn({ err, sn }, 'demo: ack not stored'));
      }, 300 + Math.random() * 500);
      this.answers.add(timer);
    }
    return true;
  }

  /** Drops devices deleted from the registry (checked every 15 s). */
  async prune(): Promise<void> {
    if (this.stopped) return;
    const alive = await repo.existingIds(this.deps.db, this.members.map((m) => m.device.id));
    for (let i = this.members.length - 1; i >= 0; i--) {
      if (!alive.has(this.members[i]!.device.id)) this.members.splice(i, 1);
    }
  }

  /** Stops the messages and marks the devices offline (as a DISCONNECT does). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.checkTimer);
    if (this.next) this.deps.commands?.setDownlink(this.next);
    for (const timer of this.answers) clearTimeout(timer);
    await Promise.all(this.members.map((m) => m.busy));
    await this.prune();
    await Promise.all(this.members.map((m) => this.deps.ingest.disconnected(m.device, { via: 'demo' })));
  }
}

/**
 * Creates the demo fleet when it should exist and is missing, then starts it. Undefined when
 * there is no demo (auto mode on a database that already has devices, or no built-in battery type).
 */
export async function startDemo(deps: DemoDeps, opts: DemoOptions): Promise<DemoFleet | undefined> {
  const { db, log } = deps;
  const count = opts.devices ?? 50;
  const centre = opts.centre ?? DEFAULT_CENTRE;
  const secrets = new Map<string, string>();

  let project = await repo.findProjectByName(db, DEMO_PROJECT);
  if (!project) {
    const created = await db.transaction(async (tx) => {
      await repo.lockDemo(tx);
      if (await repo.findProjectByName(tx, DEMO_PROJECT)) return 'exists' as const;
      if (opts.mode === 'auto' && !(await repo.registryEmpty(tx))) return 'notEmpty' as const;
      const owner = await repo.demoOwner(tx, opts.adminUsername);
      const type = await repo.typeByCode(tx, 'BMU');
      if (!owner || !type) return 'noBmu' as const;
      const projectId = await insertProject(tx, {
        name: DEMO_PROJECT,
        remarks: 'Simulated battery management units streaming from inside the server (DEMO). DEMO=off stops them; deleting the devices removes them.',
        address: 'Demo city',
        lng: centre[0],
        lat: centre[1],
        map: true,
        ownerId: owner.id,
        ownerPath: owner.path,
      });
      const rows = Array.from({ length: count }, (_, k) => {
        const i = k + 1;
        const sn = `${DEMO_SN_PREFIX}${String(i).padStart(4, '0')}`;
        const secret = crypto.randomBytes(24).toString('base64url');
        secrets.set(sn, secret);
        return {
          sn,
          name: `Demo BMU ${i}`,
          typeId: type.id,
          projectId,
          ownerPath: owner.path,
          credentialHash: hashToken(secret),
          lng: centre[0],
          lat: centre[1],
          manufacturerModel: 'demo',
          description: 'Simulated by the server (DEMO)',
        };
      });
      await insertDevices(tx, rows);
      return 'created' as const;
    });
    if (created === 'notEmpty') {
      log.info('demo fleet not created: the database already has devices or projects (DEMO=on creates it anyway)');
      return undefined;
    }
    if (created === 'noBmu') {
      log.warn('demo fleet not created: no built-in battery type or administrator');
      return undefined;
    }
    project = await repo.findProjectByName(db, DEMO_PROJECT);
    if (!project) return undefined;
    if (created === 'created') log.info(`demo fleet created: project "${DEMO_PROJECT}" with ${count} devices`);
  }

  const devices = await repo.demoDevices(db, project.id, DEMO_SN_PREFIX);
  if (devices.length === 0) {
    log.info(`demo fleet: project "${DEMO_PROJECT}" has no ${DEMO_SN_PREFIX} devices left; nothing to run`);
    return undefined;
  }
  const type = await repo.typeById(db, devices[0]!.typeId);
  const fleet = new DemoFleet(
    deps,
    project.id,
    devices,
    {
      track: type?.recordTrack ?? true,
      centre: project.lng !== null && project.lat !== null ? [project.lng, project.lat] : centre,
      intervalMs: opts.intervalMs,
      timeScale: opts.timeScale,
      faultsPerHour: opts.faultsPerHour,
    },
    secrets,
  );
  await fleet.start();
  return fleet;
}
