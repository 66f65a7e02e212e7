import {
  campaignCloseSchema,
  campaignDtoSchema,
  campaignListQuerySchema,
  campaignPlanSchema,
  campaignStartSchema,
  upgradeLogDtoSchema,
  upgradeLogQuerySchema,
  upgradeTargetDtoSchema,
  upgradeTargetQuerySchema,
} from '../campaigns.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { campaignRoutes } from '../routes/campaigns.js';

const tags = ['upgrades'];

/** The schemas of `campaignRoutes` (routes/campaigns.ts). */
export const campaignSchemas = {
  list: {
    tags,
    summary: 'Upgrade campaigns the caller sees, newest first, each with its devices counted per state and its overall progress',
    query: campaignListQuerySchema,
    data: pageOf(campaignDtoSchema),
  },
  devices: {
    tags,
    summary: 'The devices of a campaign (or the upgrades of one device) with their state, percent, attempt and the device’s reason',
    query: upgradeTargetQuerySchema,
    data: pageOf(upgradeTargetDtoSchema),
  },
  logs: {
    tags,
    summary: 'Every step of a campaign’s devices, or of one device: state reached, percent, attempt and message',
    query: upgradeLogQuerySchema,
    data: pageOf(upgradeLogDtoSchema),
  },
  start: {
    tags,
    summary:
      'Start a campaign: the version to the devices named or matching the filter that the caller manages and the version applies to ' +
      '(devices with an unfinished upgrade, or already on the version, are left out and counted); `dryRun` only counts',
    body: campaignStartSchema,
    data: campaignPlanSchema,
  },
  close: {
    tags,
    summary: 'Cancel a campaign, or some of its devices: what has not ended is cancelled and a device in progress is told (firmwareCancel)',
    body: campaignCloseSchema,
    data: campaignDtoSchema,
  },
} satisfies EndpointSchemaTable;
export const campaignApi = endpoints(campaignRoutes, campaignSchemas);
