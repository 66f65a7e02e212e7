import { z } from 'zod';
import { idQuerySchema } from '../admin.js';
import {
  deviceCredentialSchema,
  deviceDtoSchema,
  deviceEditSchema,
  deviceFieldsSchema,
  deviceListQuerySchema,
  deviceSearchItemSchema,
  deviceSearchQuerySchema,
  exportQuerySchema,
  idsQuerySchema,
  importQuerySchema,
  importReportSchema,
  moveDevicesSchema,
  templateQuerySchema,
} from '../devices.js';
import { idNumberSchema, idSchema, pageOf, pageQuerySchema } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { deviceRoutes } from '../routes/devices.js';
import { countSchema, noDataSchema } from './common.js';

const tags = ['devices'];

/** The schemas of `deviceRoutes` (routes/devices.ts). */
export const deviceSchemas = {
  list: {
    tags,
    summary: 'Devices with filters, sorting and paging',
    query: deviceListQuerySchema,
    data: pageOf(deviceDtoSchema),
  },
  search: {
    tags,
    summary: 'Typeahead by SN or name prefix',
    query: deviceSearchQuerySchema,
    data: z.array(deviceSearchItemSchema),
  },
  basic: { tags, query: idQuerySchema, data: deviceDtoSchema },
  subDevices: { tags, query: pageQuerySchema.extend({ id: idSchema }), data: pageOf(deviceDtoSchema) },
  subCount: { tags, query: idQuerySchema, data: countSchema },
  add: {
    tags,
    summary: 'Create a device; answers its ingestion secret once',
    body: deviceFieldsSchema,
    data: deviceCredentialSchema.extend({ id: z.number().int() }),
  },
  edit: { tags, body: deviceEditSchema, data: noDataSchema },
  remove: { tags, summary: 'Delete devices (id=1,2,3)', query: idsQuerySchema, data: countSchema },
  move: { tags, summary: 'Move devices to a project (or none)', body: moveDevicesSchema, data: countSchema },
  credential: {
    tags,
    summary: 'Regenerate a device’s ingestion secret (shown once)',
    body: z.object({ id: idNumberSchema }),
    data: deviceCredentialSchema,
  },
  importTemplate: {
    tags,
    summary: 'Import template (.xlsx) with headers in a language',
    query: templateQuerySchema,
    data: z.null(),
  },
  import: {
    tags,
    summary: 'Import devices from an .xlsx/.xls file (multipart field `file`)',
    description: 'mode=all writes nothing when any row is wrong; mode=valid writes the valid rows; dryRun=true only reports.',
    query: importQuerySchema,
    data: importReportSchema,
  },
  export: { tags, summary: 'Devices matching the list filters as .xlsx', query: exportQuerySchema, data: z.null() },
} satisfies EndpointSchemaTable;
export const deviceApi = endpoints(deviceRoutes, deviceSchemas);
