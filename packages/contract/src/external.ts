import { z } from 'zod';
import { afterQuerySchema, idNumberSchema, idSchema, isoDateTimeSchema, pageQuerySchema } from './envelope.js';
import {
  EXTERNAL_EVENTS,
  EXTERNAL_IDENTIFIER_PATTERN,
  EXTERNAL_LIMITS as L,
  EXTERNAL_STATES,
} from './external-rules.js';

const order = z.enum(['asc', 'desc']).default('desc');

/** One external device to register: its IMEI or serial, and optionally a name and model. */
export const externalNewDeviceSchema = z.object({
  identifier: z
    .string()
    .trim()
    .min(1, 'please enter the IMEI or serial')
    .max(L.identifierMax)
    .regex(EXTERNAL_IDENTIFIER_PATTERN, 'letters, digits and _ . - only'),
  name: z.string().trim().max(L.nameMax).default(''),
  model: z.string().trim().max(L.modelMax).default(''),
});

/** POST /hardware/addDevice: one device, or up to 1,000 at once (a pasted list). */
export const externalAddSchema = z.object({
  devices: z.array(externalNewDeviceSchema).min(1).max(L.bulkMax, `at most ${L.bulkMax} devices at once`),
});
export type ExternalAdd = z.input<typeof externalAddSchema>;

/** The credentials of the devices just added: each secret is shown this once. */
export const externalAddedSchema = z
  .object({
    items: z.array(z.object({ id: z.number().int(), identifier: z.string(), secret: z.string() })),
  })
  .meta({ id: 'ExternalDevicesAdded' });
export type ExternalAdded = z.infer<typeof externalAddedSchema>;

/** GET /hardware/getlist and /external/list. */
export const externalListQuerySchema = pageQuerySchema.extend({
  /** Free text over the identifier and the name. */
  q: z.string().trim().max(64).optional(),
  model: z.string().trim().max(L.modelMax).optional(),
  /** The version the devices report, whole. */
  version: z.string().trim().max(L.versionMax).optional(),
  state: z.enum(EXTERNAL_STATES).optional(),
  /** Devices assigned this firmware version. */
  versionId: idSchema.optional(),
  sort: z.enum(['createdAt', 'identifier', 'lastCheckinAt', 'version', 'updatedAt']).default('createdAt'),
  order,
  after: afterQuerySchema,
});

export const externalDeviceDtoSchema = z
  .object({
    id: z.number().int(),
    identifier: z.string(),
    name: z.string(),
    model: z.string(),
    /** The version it reported at its last check-in ('' before its first). */
    version: z.string(),
    lastCheckinAt: z.string().nullable(),
    lastAddress: z.string(),
    /** The assigned firmware version; null when none, or once that version is deleted. */
    versionId: z.number().int().nullable(),
    versionName: z.string(),
    /** The software version the assignment expects it to report. */
    targetVersion: z.string(),
    state: z.enum(EXTERNAL_STATES),
    progress: z.number().int(),
    reason: z.string(),
    assignedAt: z.string().nullable(),
    /** When an open assignment fails "timed out" without news. */
    deadline: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ExternalDevice' });
export type ExternalDeviceDto = z.infer<typeof externalDeviceDtoSchema>;

/** GET /hardware/getlogslist and /external/loglist. */
export const externalLogQuerySchema = pageQuerySchema.extend({
  deviceId: idSchema.optional(),
  event: z.enum(EXTERNAL_EVENTS).optional(),
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
  order,
  after: afterQuerySchema,
});

export const externalLogDtoSchema = z
  .object({
    id: z.number().int(),
    deviceId: z.number().int(),
    identifier: z.string(),
    at: z.string(),
    event: z.enum(EXTERNAL_EVENTS),
    /** The version it concerns: the reported one for a check-in, the assigned one otherwise. */
    version: z.string(),
    versionId: z.number().int().nullable(),
    progress: z.number().int().nullable(),
    message: z.string(),
    address: z.string(),
  })
  .meta({ id: 'ExternalLog' });
export type ExternalLogDto = z.infer<typeof externalLogDtoSchema>;

/** DELETE /hardware/deleteLogsDevice: one device's logs, logs older than a time, or both. */
export const externalLogDeleteQuerySchema = z
  .object({
    deviceId: idSchema.optional(),
    /** Deletes the logs strictly older than this time. */
    before: isoDateTimeSchema.optional(),
  })
  .refine((q) => q.deviceId !== undefined || q.before !== undefined, { message: 'name a device or a time', path: ['deviceId'] });

const selectedIds = z.array(idNumberSchema).min(1).max(L.selectedMax);

/** POST /external/setupgrade. */
export const externalAssignSchema = z.object({
  ids: selectedIds,
  versionId: idNumberSchema,
  /** Seconds the device may go without progress or a result before the assignment fails "timed out". */
  timeoutSec: z.number().int().min(L.timeoutMinSec).max(L.timeoutMaxSec).default(L.timeoutDefaultSec),
});
export type ExternalAssign = z.input<typeof externalAssignSchema>;

/** POST /external/closeupgrade. */
export const externalCancelSchema = z.object({ ids: selectedIds });

/** A firmware version the caller may assign (GET /external/versionoptions). */
export const externalVersionOptionSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    softwareVersion: z.string(),
    /** An uploaded image (served by the console) rather than an external URL. */
    uploaded: z.boolean(),
  })
  .meta({ id: 'ExternalVersionOption' });
export type ExternalVersionOption = z.infer<typeof externalVersionOptionSchema>;

/** POST /hardware/checkin: what an external device reports (docs/PROTOCOL.md, "External devices"). */
export const externalCheckinSchema = z.object({
  /** The software version it runs now. */
  version: z.string().trim().max(L.versionMax),
  /** Percent of the assigned upgrade (download and install), when it has one under way. */
  progress: z.number().int().min(0).max(100).optional(),
  /** The end of the upgrade as the device sees it; `ok` is confirmed by the version it reports next. */
  result: z.enum(['ok', 'error']).optional(),
  /** Its reason for an error, or any note. */
  message: z.string().max(L.messageMax).optional(),
});
export type ExternalCheckin = z.input<typeof externalCheckinSchema>;

export const externalUpgradeSchema = z.object({
  versionId: z.number().int(),
  softwareVersion: z.string(),
  /** The console's download route for an uploaded image, or the version's own URL as given. */
  url: z.string(),
  size: z.number().int().nullable(),
  sha256: z.string().nullable(),
});
export const externalCheckinAnswerSchema = z
  .object({ upgrade: externalUpgradeSchema.nullable() })
  .meta({ id: 'ExternalCheckinAnswer' });
export type ExternalCheckinAnswer = z.infer<typeof externalCheckinAnswerSchema>;

export const externalFirmwareParamsSchema = z.object({ versionId: idSchema });
