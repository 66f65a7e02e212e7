import { z } from 'zod';
import { idNumberSchema, idSchema, pageQuerySchema } from './envelope.js';
import { CAMPAIGN_STATES, UPGRADE_DEFAULTS, UPGRADE_LIMITS, UPGRADE_TARGET_STATES } from './upgrade-rules.js';

/**
 * Device upgrade campaigns (§2 /upgrade/device; §7 /upgrade/setdeviceupgrade,
 * /upgrade/closedeviceupgrade, /upgrade/devicelist, /upgrade/loglist): upgrade-rules.ts has the
 * states and limits.
 */

const order = z.enum(['asc', 'desc']).default('desc');
const L = UPGRADE_LIMITS;

/** Which devices a campaign targets: a selection, or every device matching a filter. */
export const campaignTargetsSchema = z
  .object({
    deviceIds: z.array(idNumberSchema).min(1).max(L.selectedMax).optional(),
    projectId: idNumberSchema.optional(),
    typeId: idNumberSchema.optional(),
    /** The firmware the devices report now (their status `info.firmware`). */
    currentVersion: z.string().trim().min(1).max(64).optional(),
  })
  .refine((t) => t.deviceIds !== undefined || t.projectId !== undefined || t.typeId !== undefined || t.currentVersion !== undefined, {
    message: 'name the devices, or at least one filter (project, type, current version)',
    path: ['deviceIds'],
  });

/** POST /upgrade/setdeviceupgrade: start a campaign, or (`dryRun`) say what it would target. */
export const campaignStartSchema = z.object({
  versionId: idNumberSchema,
  targets: campaignTargetsSchema,
  concurrency: z.number().int().min(L.concurrencyMin).max(L.concurrencyMax).default(UPGRADE_DEFAULTS.concurrency),
  stageTimeoutSec: z.number().int().min(L.stageTimeoutMin).max(L.stageTimeoutMax).default(UPGRADE_DEFAULTS.stageTimeoutSec),
  retries: z.number().int().min(0).max(L.retriesMax).default(UPGRADE_DEFAULTS.retries),
  deadlineHours: z.number().min(0.01).max(L.deadlineHoursMax).default(UPGRADE_DEFAULTS.deadlineHours),
  dryRun: z.boolean().default(false),
});
export type CampaignStart = z.input<typeof campaignStartSchema>;

/** What a campaign targets, and the devices it leaves out and why. */
export const campaignPlanSchema = z.object({
  /** Devices the campaign upgrades. */
  targets: z.number().int(),
  /** The version does not apply to their type or manufacturer model. */
  incompatible: z.number().int(),
  /** Another upgrade of theirs has not ended. */
  busy: z.number().int(),
  /** They report this version already. */
  current: z.number().int(),
  /** The campaign, when one was started. */
  campaignId: z.number().int().optional(),
});
export type CampaignPlan = z.infer<typeof campaignPlanSchema>;

/** POST /upgrade/closedeviceupgrade: cancel a campaign, or some of its devices. */
export const campaignCloseSchema = z.object({
  campaignId: idNumberSchema,
  deviceIds: z.array(idNumberSchema).min(1).max(L.selectedMax).optional(),
});
export type CampaignClose = z.infer<typeof campaignCloseSchema>;


export const campaignDtoSchema = z
  .object({
    id: z.number().int(),
    versionId: z.number().int().nullable(),
    versionName: z.string(),
    softwareVersion: z.string(),
    state: z.enum(CAMPAIGN_STATES),
    concurrency: z.number().int(),
    stageTimeoutSec: z.number().int(),
    retries: z.number().int(),
    deadline: z.string(),
    createdAt: z.string(),
    endedAt: z.string().nullable(),
    createdByName: z.string().nullable(),
    total: z.number().int(),
    /** Devices per state (absent: none). */
    counts: z.partialRecord(z.enum(UPGRADE_TARGET_STATES), z.number().int()),
    /** 0–100 over all devices: an ended device counts 100, one in progress its percent. */
    progress: z.number().int(),
  })
  .meta({ id: 'UpgradeCampaign' });
export type CampaignDto = z.infer<typeof campaignDtoSchema>;

export const campaignListQuerySchema = pageQuerySchema.extend({
  /** One campaign: the console's details drawer reads its campaign by the id in its address. */
  id: idSchema.optional(),
  state: z.enum(CAMPAIGN_STATES).optional(),
  versionId: idSchema.optional(),
  /** Name or software version of the version, contains. */
  q: z.string().trim().max(64).optional(),
  sort: z.enum(['createdAt', 'id']).default('createdAt'),
  order,
});
export type CampaignListQuery = z.input<typeof campaignListQuerySchema>;

export const upgradeTargetDtoSchema = z
  .object({
    campaignId: z.number().int(),
    deviceId: z.number().int(),
    deviceName: z.string(),
    sn: z.string(),
    online: z.boolean(),
    state: z.enum(UPGRADE_TARGET_STATES),
    progress: z.number().int(),
    attempt: z.number().int(),
    reason: z.string().nullable(),
    fromVersion: z.string().nullable(),
    toVersion: z.string().nullable(),
    /** When the current state began (its stage timeout counts from here). */
    stageAt: z.string(),
    updatedAt: z.string(),
    endedAt: z.string().nullable(),
  })
  .meta({ id: 'UpgradeTarget' });
export type UpgradeTargetDto = z.infer<typeof upgradeTargetDtoSchema>;

/** GET /upgrade/devicelist: a campaign's devices (or one device's upgrades over campaigns). */
export const upgradeTargetQuerySchema = pageQuerySchema.extend({
  campaignId: idSchema.optional(),
  deviceId: idSchema.optional(),
  state: z.enum(UPGRADE_TARGET_STATES).optional(),
  /** Device name or SN, contains. */
  q: z.string().trim().max(64).optional(),
  sort: z.enum(['id', 'state', 'progress', 'updatedAt']).default('id'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type UpgradeTargetQuery = z.input<typeof upgradeTargetQuerySchema>;

export const upgradeLogDtoSchema = z
  .object({
    id: z.number().int(),
    campaignId: z.number().int(),
    deviceId: z.number().int(),
    sn: z.string(),
    at: z.string(),
    state: z.enum(UPGRADE_TARGET_STATES),
    attempt: z.number().int(),
    progress: z.number().int().nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: 'UpgradeLog' });
export type UpgradeLogDto = z.infer<typeof upgradeLogDtoSchema>;

/** GET /upgrade/loglist: every step of a campaign's devices, or of one device. */
export const upgradeLogQuerySchema = pageQuerySchema
  .extend({
    campaignId: idSchema.optional(),
    deviceId: idSchema.optional(),
    order,
  })
  .refine((q) => q.campaignId !== undefined || q.deviceId !== undefined, { message: 'name a campaign or a device', path: ['campaignId'] });
export type UpgradeLogQuery = z.input<typeof upgradeLogQuerySchema>;
