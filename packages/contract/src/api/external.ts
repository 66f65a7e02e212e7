import { z } from 'zod';
import { idsQuerySchema } from '../devices.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import {
  externalAddSchema,
  externalAddedSchema,
  externalAssignSchema,
  externalCancelSchema,
  externalCheckinAnswerSchema,
  externalCheckinSchema,
  externalDeviceDtoSchema,
  externalFirmwareParamsSchema,
  externalListQuerySchema,
  externalLogDeleteQuerySchema,
  externalLogDtoSchema,
  externalLogQuerySchema,
  externalVersionOptionSchema,
} from '../external.js';
import { externalRoutes } from '../routes/external.js';
import { countSchema } from './common.js';

const tags = ['external-devices'];

/** The schemas of `externalRoutes` (routes/external.ts). */
export const externalSchemas = {
  add: {
    tags,
    summary:
      'Register external devices, one or up to 1,000 at once; each gets a credential shown this once. ' +
      'An identifier already registered (or given twice) refuses the whole call, naming them',
    body: externalAddSchema,
    data: externalAddedSchema,
  },
  list: {
    tags,
    summary: 'External devices with their last check-in, reported version and assignment',
    query: externalListQuerySchema,
    data: pageOf(externalDeviceDtoSchema),
  },
  logs: {
    tags,
    summary: 'The external log: every check-in, assignment, cancel, download, progress and result (one device or all)',
    query: externalLogQuerySchema,
    data: pageOf(externalLogDtoSchema),
  },
  remove: { tags, summary: 'Delete external devices (id=1,2,3) with their logs', query: idsQuerySchema, data: countSchema },
  removeLogs: {
    tags,
    summary: 'Delete a device’s logs, the logs older than a time, or a device’s logs older than a time',
    query: externalLogDeleteQuerySchema,
    data: countSchema,
  },
  upgrades: {
    tags,
    summary: 'External devices that were assigned a version, with the assignment’s state, progress and reason',
    query: externalListQuerySchema,
    data: pageOf(externalDeviceDtoSchema),
  },
  upgradeLogs: {
    tags,
    summary: 'The upgrade events of external devices (the external log without plain check-ins)',
    query: externalLogQuerySchema,
    data: pageOf(externalLogDtoSchema),
  },
  assign: {
    tags,
    summary:
      'Assign a firmware version to external devices: their next check-in hands it over. An assignment without ' +
      'progress or a result within `timeoutSec` (default 1 h) fails "timed out"',
    body: externalAssignSchema,
    data: countSchema,
  },
  cancel: { tags, summary: 'Cancel the open assignments of external devices: their next check-in gets none', body: externalCancelSchema, data: countSchema },
  versionOptions: {
    tags,
    summary: 'The firmware versions the caller may assign (its own line’s and those published above it)',
    data: z.array(externalVersionOptionSchema),
  },
  checkin: {
    tags,
    summary:
      'An external device checks in (HTTP Basic: identifier and credential) with its version and, during an upgrade, ' +
      'its progress or result; the answer names the upgrade assigned to it, or null',
    body: externalCheckinSchema,
    data: externalCheckinAnswerSchema,
  },
  firmware: {
    tags,
    summary: 'The uploaded image of the version assigned to this external device (HTTP Basic), with Range support',
    params: externalFirmwareParamsSchema,
    data: z.null(),
  },
} satisfies EndpointSchemaTable;
export const externalApi = endpoints(externalRoutes, externalSchemas);
