import { z } from 'zod';
import { deviceTypeOptionSchema } from './devices.js';
import { editOf } from './edit.js';
import { idNumberSchema, idSchema, pageQuerySchema } from './envelope.js';
import { FIRMWARE_FILE_KEY_PATTERN, FIRMWARE_LIMITS, FIRMWARE_SHA256_PATTERN } from './firmware-rules.js';
import { UPGRADE_LIMITS } from './upgrade-rules.js';

/**
 * Firmware versions (§2 /upgrade/version, §3 upgrade version, §7 /upgrade/list, add, edit,
 * delete): an uploaded image (POST /upgrade/upload first, then its `fileKey`) or an external
 * `url` with its checksum, and the device types and manufacturer models it applies to.
 */

const text = (max: number) => z.string().trim().max(max).default('');
const required = (max: number, message: string) => z.string().trim().min(1, message).max(max);
const sha256 = z
  .string()
  .trim()
  .regex(FIRMWARE_SHA256_PATTERN, '64 hexadecimal digits')
  .transform((s) => s.toLowerCase());

export const firmwareListQuerySchema = pageQuerySchema.extend({
  /** Free text over the name and the software version. */
  q: z.string().trim().max(FIRMWARE_LIMITS.textMax).optional(),
  manufacturer: z.string().trim().max(FIRMWARE_LIMITS.textMax).optional(),
  module: z.string().trim().max(FIRMWARE_LIMITS.textMax).optional(),
  /** Versions that apply to this device type (those naming no type apply to every type). */
  typeId: idSchema.optional(),
  sort: z.enum(['createdAt', 'name', 'softwareVersion', 'manufacturer', 'module', 'size', 'id']).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
});

export const firmwareCanSchema = z.object({
  /** POST /upgrade/edit: created in the caller's subtree (a version published from above is read-only). */
  edit: z.boolean(),
  /** DELETE /upgrade/delete: likewise, and no running campaign uses it. */
  delete: z.boolean(),
});

export const firmwareDtoSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    manufacturer: z.string(),
    module: z.string(),
    softwareVersion: z.string(),
    info: z.string(),
    /** The external image's address; '' for an uploaded image. */
    url: z.string(),
    /** The uploaded image's name; null for an external one. */
    fileName: z.string().nullable(),
    /** Bytes (an external image's when it was given). */
    size: z.number().int().nullable(),
    sha256: z.string().nullable(),
    /** Device types it applies to (empty: any). */
    types: z.array(deviceTypeOptionSchema),
    /** Manufacturer models it applies to (empty: any). */
    models: z.array(z.string()),
    createdBy: z.number().int().nullable(),
    createdByName: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    /** A running campaign rolls it out: its image cannot change and it cannot be deleted. */
    inUse: z.boolean(),
    can: firmwareCanSchema,
  })
  .meta({ id: 'FirmwareVersion' });
export type FirmwareDto = z.infer<typeof firmwareDtoSchema>;

/** What POST /upgrade/upload answers: the stored image, to name in add or edit within a day. */
export const firmwareUploadedSchema = z.object({
  fileKey: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
});
export type FirmwareUploaded = z.infer<typeof firmwareUploadedSchema>;

const firmwareFields = z.object({
  name: required(UPGRADE_LIMITS.nameMax, 'please enter the name'),
  manufacturer: text(FIRMWARE_LIMITS.textMax),
  /** The module the image is for: the firmwareUpgrade command carries it. */
  module: required(FIRMWARE_LIMITS.textMax, 'please enter the module'),
  softwareVersion: required(FIRMWARE_LIMITS.textMax, 'please enter the software version'),
  info: text(UPGRADE_LIMITS.infoMax),
  typeIds: z
    .array(idNumberSchema)
    .max(FIRMWARE_LIMITS.typesMax)
    .transform((a) => [...new Set(a)])
    .default([]),
  models: z
    .array(z.string().trim().min(1, 'a model cannot be empty').max(FIRMWARE_LIMITS.modelMax))
    .max(FIRMWARE_LIMITS.modelsMax)
    .transform((a) => [...new Set(a)])
    .default([]),
  /** An upload's `fileKey` (POST /upgrade/upload); its size and SHA-256 come with it. */
  fileKey: z.string().regex(FIRMWARE_FILE_KEY_PATTERN, 'the fileKey an upload answered').optional(),
  /** Or an external image: http or https. */
  url: z.url({ protocol: /^https?$/, message: 'an http or https address' }).max(UPGRADE_LIMITS.urlMax).optional(),
  /** The external image's SHA-256 (required with `url`): devices check their download against it. */
  sha256: sha256.optional(),
  /** The external image's size in bytes (optional). */
  size: z.number().int().positive().max(4 * 1024 ** 3).optional(),
});

type ImageFields = { fileKey?: string; url?: string; sha256?: string; size?: number };

/** One image: an upload or a URL with its checksum; size and checksum of an upload are its own. */
function checkImage(v: ImageFields, ctx: z.RefinementCtx, required: boolean) {
  if (v.fileKey !== undefined && v.url !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'either an uploaded file (fileKey) or a url, not both' });
  } else if (required && v.fileKey === undefined && v.url === undefined) {
    ctx.addIssue({ code: 'custom', path: ['fileKey'], message: 'upload a file (fileKey) or give a url' });
  }
  if (v.url !== undefined && v.sha256 === undefined) {
    ctx.addIssue({ code: 'custom', path: ['sha256'], message: 'the SHA-256 of the image at the url is required' });
  }
  if (v.url === undefined && (v.sha256 !== undefined || v.size !== undefined)) {
    const path = v.sha256 !== undefined ? 'sha256' : 'size';
    ctx.addIssue({ code: 'custom', path: [path], message: 'only with a url: an upload brings its own size and SHA-256' });
  }
}

export const firmwareCreateSchema = firmwareFields.superRefine((v, ctx) => checkImage(v, ctx, true));
/** Changes only the fields sent; a new `fileKey` or `url` (with `sha256`) replaces the image. */
export const firmwareEditSchema = editOf(firmwareFields)
  .extend({ id: idNumberSchema })
  .superRefine((v, ctx) => checkImage(v, ctx, false));
export type FirmwareCreate = z.output<typeof firmwareCreateSchema>;
export type FirmwareEdit = z.output<typeof firmwareEditSchema>;

export const firmwareDownloadParamsSchema = z.object({ versionId: idSchema });
