import { z } from 'zod';
import {
  alarmBellSchema,
  alarmDtoSchema,
  alarmFilterSchema,
  alarmGroupSchema,
  alarmListQuerySchema,
  alarmNoticeQuerySchema,
  alarmNoticeSchema,
  alarmProcessSchema,
} from '../alarms.js';
import { pageOf } from '../envelope.js';
import { LANGUAGES } from '../enums.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { alarmRoutes } from '../routes/alarms.js';

const tags = ['alarms'];

/** The schemas of `alarmRoutes` (routes/alarms.ts). */
export const alarmSchemas = {
  list: {
    tags,
    summary: 'Alarms the caller may see, filtered, sorted and paged on the server',
    query: alarmListQuerySchema,
    data: pageOf(alarmDtoSchema),
  },
  groups: {
    tags,
    summary: 'Alarm counts by level and by state for the same filters',
    query: alarmFilterSchema,
    data: alarmGroupSchema,
  },
  bell: { tags, summary: 'Untreated alarms the caller may see, and the newest five', data: alarmBellSchema },
  process: {
    tags,
    summary: 'Mark alarms processed or “no processing required”, with a note',
    body: alarmProcessSchema,
    data: z.object({ processed: z.number().int() }),
  },
  notices: {
    tags,
    summary: 'The SMS and voice calls of one alarm, oldest first, each with its attempts',
    query: alarmNoticeQuerySchema,
    data: z.array(alarmNoticeSchema),
  },
  export: {
    tags,
    summary: 'The filtered alarms as an .xlsx file',
    query: alarmListQuerySchema.omit({ page: true, limit: true, after: true }).extend({ lang: z.enum(LANGUAGES).default('en') }),
    data: z.null(),
  },
} satisfies EndpointSchemaTable;
export const alarmApi = endpoints(alarmRoutes, alarmSchemas);
