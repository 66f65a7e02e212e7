import type { FastifyBaseLogger } from 'fastify';
import type { UpgradeTargetState } from '@iot/contract';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../lib/events.js';
import { newCommandId, type CommandService } from '../../telemetry/commands.js';
import * as repo from './campaign.repo.js';

/** Commands sent per round at most (a wave larger than this goes out over the next rounds). */
const WAVE_MAX = 500;
/** The order of the stages with a command out: answers never move a device backwards. */
const STAGE_RANK: Partial<Record<UpgradeTargetState, number>> = {
  sent: 0,
  downloading: 1,
  installing: 2,
  verifying: 3,
};
/** What a firmwareCancel may take before the console stops waiting for its answer. */
const CANCEL_TTL_MS = 120_000;

/**
 * Drives upgrade campaigns (decision 0034). A round, every `everyMs` and soon after any news
 * (a device online, an answer to an upgrade command):
 * 1. devices that report the campaign's version end `succeeded` (success is what the device
 *    reports afterwards, not only its `ok`);
 * 2. a stage (sent, downloading, installing, verifying) older than the campaign's stage timeout
 *    is another attempt while retries remain, else `timedOut`; the device is told to stop;
 * 3. campaigns past their deadline: what has not ended times out;
 * 4. the next wave: queued devices that are online, up to each campaign's free slots;
 * 5. campaigns with nothing open are finished.
 * Every state that is not final therefore has a clock, and no device stays in progress.
 * Answers move a device at once (`onCommand`): progress → downloading / installing, ok →
 * verifying, error → failed with the device's reason.
 */
export class CampaignEngine {
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private readonly off: (() => void)[] = [];
  private readonly answering = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly commands: CommandService,
    bus: EventBus,
    private readonly log: FastifyBaseLogger,
  ) {
    this.off.push(
      // Local: an answer is recorded (a write) by the instance that took it, once.
      bus.on(
        'device.command',
        (c) => {
          if (c.kind !== 'firmwareUpgrade') return;
          // One command's answers in the order they came: each reads the state the previous one left.
          const run = (this.answering.get(c.id) ?? Promise.resolve())
            .then(() => this.onCommand(c))
            .catch((err) => this.log.error({ err, command: c.id }, 'upgrade answer not recorded'));
          this.answering.set(c.id, run);
          void run.then(() => {
            if (this.answering.get(c.id) === run) this.answering.delete(c.id);
          });
        },
        { local: true },
      ),
      // Local too: a remote kick would start rounds on every instance at the same moment.
      bus.on(
        'device.status',
        (s) => {
          if (s.online) this.kick();
        },
        { local: true },
      ),
    );
  }

  /**
   * Rounds every `everyMs`, and kicks, on the leading instance only (decision 0038): two
   * instances' waves would each fill a campaign's free slots. Answers are recorded everywhere.
   */
  start(everyMs = 2000): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.round(), everyMs);
    this.timer.unref();
  }

  /** No more rounds here (leadership lost, or closing); a round under way ends. */
  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.soon);
    this.timer = this.soon = undefined;
  }

  close(): void {
    this.stop();
    for (const off of this.off) off();
  }

  /** A round shortly (news came), while rounds run here; several kicks make one round. */
  kick(): void {
    if (this.soon || !this.timer) return;
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.round();
    }, 100);
    this.soon.unref?.();
  }

  /** One round at `now` (tests pass a later clock); rounds never overlap, a round asked for meanwhile follows. */
  round(now?: Date): Promise<void> {
    if (this.running) {
      // A round at a given clock runs after the current one, as far ahead of the time it then
      // starts (a clock taken before the wait logged its steps before answers stored meanwhile);
      // a kick joins it.
      if (now) {
        const ahead = now.getTime() - Date.now();
        return this.running.then(() => this.round(new Date(Date.now() + ahead)));
      }
      this.again = true;
      return this.running;
    }
    this.running = this.work(now)
      .catch((err) => this.log.error({ err }, 'upgrade round failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
    return this.running;
  }

  private async work(at?: Date): Promise<void> {
    const now = at ?? new Date();
    await repo.verify(this.db, now);
    await this.tell(await repo.timeOutStages(this.db, now));
    await this.tell(await repo.endOpen(this.db, { deadline: now }, now));
    // A wave's devices share their campaign's command: read once per campaign and round.
    const commands = new Map<number, ReturnType<typeof repo.campaignCommand>>();
    for (const t of await repo.nextWave(this.db, now, WAVE_MAX)) {
      if (!commands.has(t.campaign_id)) commands.set(t.campaign_id, repo.campaignCommand(this.db, t.campaign_id));
      await this.send(t, await commands.get(t.campaign_id)!, now);
    }
    await repo.finishCampaigns(this.db, now);
  }

  /** Sends the campaign's firmwareUpgrade to one device: the row is marked first, so a fast answer finds it. */
  private async send(
    t: { id: number; campaign_id: number; device_id: number; sn: string },
    c: Awaited<ReturnType<typeof repo.campaignCommand>>,
    now: Date,
  ) {
    if (!c || c.version_id === null) return;
    const id = newCommandId();
    if (!(await repo.markSent(this.db, t.id, id, now))) return;
    const stageMs = c.stage_timeout_sec * 1000;
    // Long enough for the three stages the device lives through; never past the deadline.
    const ttlMs = Math.max(10_000, Math.min(3 * stageMs + 60_000, new Date(c.deadline).getTime() - Date.now()));
    const payload = {
      versionId: c.version_id,
      name: c.version_name,
      softwareVersion: c.software_version,
      module: c.module || c.version_name,
      url: c.url,
      ...(c.size !== null ? { size: Number(c.size) } : {}),
      ...(c.sha256 ? { sha256: c.sha256 } : {}),
      target: 'device' as const,
    };
    try {
      await this.commands.send({ id: t.device_id, sn: t.sn }, 'firmwareUpgrade', payload, { ttlMs, id });
    } catch (err) {
      // The payload refused (a version changed under the campaign): the device ends failed, named.
      this.log.warn({ err, campaign: t.campaign_id, device: t.device_id }, 'upgrade command not sent');
      await repo.move(this.db, { id: t.id, from: 'sent', to: 'failed', reason: `not sent: ${(err as Error).message}`, now });
    }
  }

  /** Devices whose upgrade ended while a command was out: the command is withdrawn and the device told to stop. */
  async tell(ended: repo.Ended[]): Promise<void> {
    const withdraw = ended.map((e) => e.command_id).filter((id): id is string => id !== null);
    if (withdraw.length > 0) await this.commands.withdraw(withdraw, 'cancelled by the console');
    for (const e of ended) {
      if (!e.online || e.version_id === null || !['sent', 'downloading', 'installing'].includes(e.old_state)) continue;
      try {
        await this.commands.send({ id: e.device_id, sn: e.sn }, 'firmwareCancel', { versionId: e.version_id }, { ttlMs: CANCEL_TTL_MS });
      } catch (err) {
        this.log.warn({ err, device: e.device_id }, 'firmwareCancel not sent');
      }
    }
  }

  /** A device's answer to its upgrade command (or the command's end). */
  private async onCommand(c: { id: string; status: string; message: string; progress: number | null }): Promise<void> {
    const t = await repo.targetByCommand(this.db, c.id);
    if (!t) return;
    const now = new Date();
    const from = t.state;
    if (c.status === 'succeeded') {
      await repo.move(this.db, { id: t.id, from, to: 'verifying', progress: 100, message: c.message || 'the device says ok', now });
      // It may have reported the version already.
      this.kick();
    } else if (c.status === 'failed') {
      await repo.move(this.db, { id: t.id, from, to: 'failed', reason: c.message || 'the device refused', now });
      this.kick();
    } else if (c.status === 'timeout') {
      // The command expired before the device ended: the stage timeout decides (retry or timed out).
      this.kick();
    } else if (c.progress !== null) {
      // A progress: its note names the stage (docs/PROTOCOL.md), downloading when it names none.
      // Answers stored side by side may arrive out of order: a device never goes back a stage, nor
      // back in percent within one, so a late answer is dropped.
      const to: UpgradeTargetState = /install/i.test(c.message) ? 'installing' : 'downloading';
      const progress = Math.max(0, Math.min(99, Math.round(c.progress)));
      if (STAGE_RANK[to]! < (STAGE_RANK[from] ?? Infinity) || (to === from && progress <= t.progress)) return;
      await repo.move(this.db, { id: t.id, from, to, progress, message: c.message || null, now });
    }
  }
}
