import { z } from 'zod';
import { idsQuerySchema } from '../devices.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import {
  firmwareCreateSchema,
  firmwareDownloadParamsSchema,
  firmwareDtoSchema,
  firmwareEditSchema,
  firmwareListQuerySchema,
  firmwareUploadedSchema,
} from '../firmware.js';
import { firmwareRoutes } from '../routes/firmware.js';
import { countSchema, createdSchema, noDataSchema } from './common.js';

const tags = ['firmware'];

/** The schemas of `firmwareRoutes` (routes/firmware.ts). */
export const firmwareSchemas = {
  upload: {
    tags,
    summary: 'Upload a firmware image (multipart field `file`), streamed to disk with its size and SHA-256',
    description:
      'At most FIRMWARE_MAX_MB (default 128) MB; an empty file or a larger one is refused naming `file`. ' +
      'Answers a `fileKey` to name in /upgrade/add or /upgrade/edit; an upload no version takes within a day is removed.',
    data: firmwareUploadedSchema,
  },
  list: {
    tags,
    summary:
      'Firmware versions the caller sees (created in its subtree, or by a user above it), with the image, what they apply to and whether a running campaign uses them',
    query: firmwareListQuerySchema,
    data: pageOf(firmwareDtoSchema),
  },
  add: {
    tags,
    summary: 'A firmware version: an uploaded image (`fileKey`) or an external `url` with its `sha256`',
    body: firmwareCreateSchema,
    data: createdSchema,
  },
  edit: {
    tags,
    summary: 'Change a version of the caller’s subtree; a new image (`fileKey` or `url`) only while no running campaign uses it',
    body: firmwareEditSchema,
    data: noDataSchema,
  },
  remove: {
    tags,
    summary: 'Delete versions of the caller’s subtree (`id=1,2,3`) and their images; refused while a running campaign uses one',
    query: idsQuerySchema,
    data: countSchema,
  },
  download: {
    tags,
    summary: 'A device downloads an uploaded image (HTTP Basic `SN:secret`); `Range` resumes it (206, 416)',
    description:
      'The checksum travels as `X-Checksum-SHA256` and the ETag. A version not published for the device’s owner line answers 40400; ' +
      'an external version answers 40900 with reason `firmwareExternal` (its image is at its url).',
    params: firmwareDownloadParamsSchema,
    data: z.null(),
  },
} satisfies EndpointSchemaTable;
export const firmwareApi = endpoints(firmwareRoutes, firmwareSchemas);
