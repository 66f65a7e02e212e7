import {
  ErrorCode,
  firmwareDownloadPath,
  type CampaignClose,
  type CampaignDto,
  type CampaignPlan,
  type campaignApi,
  type EndpointParsedBody,
  type EndpointParsedQuery,
  type UpgradeLogDto,
  type UpgradeTargetDto,
  type Page,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import type { AuthContext } from '../../lib/caller.js';
import { conflict, notFound, refuse } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { CampaignEngine } from './campaign.engine.js';
import * as repo from './campaign.repo.js';

const iso = (d: string | Date) => new Date(d).toISOString();
const isoOrNull = (d: string | Date | null) => (d === null ? null : iso(d));

function toDto(c: repo.CampaignRow): CampaignDto {
  return {
    id: c.id,
    versionId: c.version_id,
    versionName: c.version_name,
    softwareVersion: c.software_version,
    state: c.state,
    concurrency: c.concurrency,
    stageTimeoutSec: c.stage_timeout_sec,
    retries: c.retries,
    deadline: iso(c.deadline),
    createdAt: iso(c.created_at),
    endedAt: isoOrNull(c.ended_at),
    createdByName: c.created_by_name,
    total: c.total,
    counts: c.counts ?? {},
    progress: c.total === 0 ? 100 : Math.floor(Number(c.progress_sum ?? 0) / c.total),
  };
}

/**
 * Device upgrade campaigns (§7 /upgrade/setdeviceupgrade, closedeviceupgrade, devicelist, loglist;
 * the engine moves them). A campaign takes the devices the caller manages (owned in its subtree or
 * in a project owned there) that the version applies to; a version is usable when created in the
 * caller's subtree or above it. Campaigns are seen by their creator's subtree.
 */
export class CampaignService {
  constructor(
    private readonly db: Db,
    private readonly engine: CampaignEngine,
    private readonly opts: { consoleUrl?: string },
  ) {}

  async start(actor: Actor, body: EndpointParsedBody<typeof campaignApi.start>, origin: string): Promise<CampaignPlan> {
    const scope = scopeOf(actor);
    const version = await repo.usableVersion(this.db, body.versionId, scope);
    if (!version) throw notFound('versionNotFound');
    const { deviceIds, projectId, typeId, currentVersion } = body.targets;
    if (deviceIds) {
      const unique = [...new Set(deviceIds)];
      const seen = new Set(await repo.managedIds(this.db, unique, scope));
      const missing = unique.filter((id) => !seen.has(id));
      if (missing.length > 0) throw notFound('devicesNotFound', { ids: missing.join(', ') });
    }
    const filter: repo.TargetFilter = { scope, deviceIds, projectId, typeId, currentVersion };
    const counts = await repo.plan(this.db, filter, version);
    const plan: CampaignPlan = { targets: counts.target, incompatible: counts.incompatible, busy: counts.busy, current: counts.current };
    if (body.dryRun) return plan;
    if (counts.target === 0) {
      throw refuse(ErrorCode.VALIDATION, 'noUpgradeTargets', {
        field: 'targets',
        params: { incompatible: counts.incompatible, busy: counts.busy, current: counts.current },
      });
    }
    // Uploaded images come from the console itself; the address devices use is CONSOLE_URL, or
    // the one the operator reached the console at.
    const url = version.url || `${(this.opts.consoleUrl ?? origin).replace(/\/$/, '')}${firmwareDownloadPath(version.id)}`;
    const started = await this.db.transaction(async (tx) => {
      const campaignId = await repo.insertCampaign(tx, {
        versionId: version.id,
        versionName: version.name,
        softwareVersion: version.software_version,
        concurrency: body.concurrency,
        stageTimeoutSec: body.stageTimeoutSec,
        retries: body.retries,
        deadline: new Date(Date.now() + body.deadlineHours * 3_600_000),
        url,
        ownerPath: actor.path,
        createdBy: actor.userId,
        createdByName: actor.username,
      });
      const targets = await repo.insertTargets(tx, campaignId, filter, version);
      await audit(tx, actor, {
        entityId: campaignId,
        name: `${version.name} ${version.software_version}`,
        summary: { versionId: version.id, targets, concurrency: body.concurrency, stageTimeoutSec: body.stageTimeoutSec, retries: body.retries },
      });
      return { campaignId, targets };
    });
    this.engine.kick();
    return { ...plan, targets: started.targets, campaignId: started.campaignId };
  }

  async close(actor: Actor, body: CampaignClose): Promise<CampaignDto> {
    const scope = scopeOf(actor);
    const campaign = await repo.campaignById(this.db, body.campaignId, scope);
    if (!campaign) throw notFound('campaignNotFound');
    if (campaign.state !== 'running') throw conflict('campaignEnded');
    const now = new Date();
    const ended = await this.db.transaction(async (tx) => {
      const rows = await repo.endOpen(tx, { campaignId: campaign.id, deviceIds: body.deviceIds, reason: `cancelled by ${actor.username}` }, now);
      if (!body.deviceIds) await repo.cancelCampaign(tx, campaign.id, now);
      await audit(tx, actor, {
        entityId: campaign.id,
        name: `${campaign.version_name} ${campaign.software_version}`,
        summary: { devices: body.deviceIds ?? 'all', cancelled: rows.length },
      });
      return rows;
    });
    await this.engine.tell(ended);
    // A campaign whose last open devices were cancelled one by one has finished.
    this.engine.kick();
    return toDto((await repo.campaignById(this.db, campaign.id, scope))!);
  }

  async list(ctx: AuthContext, q: EndpointParsedQuery<typeof campaignApi.list>): Promise<Page<CampaignDto>> {
    const res = await repo.listCampaigns(this.db, { ...q, scope: scopeOf(ctx) });
    return { total: res.total, items: res.items.map(toDto) };
  }

  async devices(ctx: AuthContext, q: EndpointParsedQuery<typeof campaignApi.devices>): Promise<Page<UpgradeTargetDto>> {
    const res = await repo.listTargets(this.db, { ...q, scope: scopeOf(ctx) });
    return {
      total: res.total,
      items: res.items.map((t) => ({
        campaignId: t.campaign_id,
        deviceId: t.device_id,
        deviceName: t.device_name,
        sn: t.sn,
        online: t.online,
        state: t.state,
        progress: t.progress,
        attempt: t.attempt,
        reason: t.reason,
        fromVersion: t.from_version,
        toVersion: t.to_version,
        stageAt: iso(t.stage_at),
        updatedAt: iso(t.updated_at),
        endedAt: isoOrNull(t.ended_at),
      })),
    };
  }

  async logs(ctx: AuthContext, q: EndpointParsedQuery<typeof campaignApi.logs>): Promise<Page<UpgradeLogDto>> {
    const res = await repo.listLogs(this.db, { ...q, scope: scopeOf(ctx) });
    return {
      total: res.total,
      items: res.items.map((l) => ({
        id: Number(l.id),
        campaignId: l.campaign_id,
        deviceId: l.device_id,
        sn: l.sn,
        at: iso(l.at),
        state: l.state,
        attempt: l.attempt,
        progress: l.progress,
        message: l.message,
      })),
    };
  }
}
