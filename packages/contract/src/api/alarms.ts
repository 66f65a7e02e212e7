import { z } from 'zod';
import {
  alarmBellSchema,
  alarmDtoSchema,
  alarmFilterSchema,
  alarmGroupSchema,
  alarmListQuerySchema,
  alarmProcessSchema,
} from '../alarms.js';
import { pageOf } from '../envelope.js';
import { LANGUAGES } from '../enums.js';
import { endpoint } from '../endpoint.js';
import { AUTHENTICATED } from '../permissions.js';

const tags = ['alarms'];

/** §1 monitor alarms; §7 /device/alarmlist, /device/alarmgroupinfo; the /project/alarminfo page. */
export const alarmApi = {
  list: endpoint({
    method: 'GET',
    path: '/device/alarmlist',
    permission: ['alarm:list', 'device:detail'],
    tags,
    summary: 'Alarms the caller may see, filtered, sorted and paged on the server',
    query: alarmListQuerySchema,
    data: pageOf(alarmDtoSchema),
  }),
  groups: endpoint({
    method: 'GET',
    path: '/device/alarmgroupinfo',
    permission: ['alarm:list', 'device:detail'],
    tags,
    summary: 'Alarm counts by level and by state for the same filters',
    query: alarmFilterSchema,
    data: alarmGroupSchema,
  }),
  bell: endpoint({
    method: 'GET',
    path: '/device/alarmbell',
    permission: AUTHENTICATED,
    tags,
    summary: 'Untreated alarms the caller may see, and the newest five',
    data: alarmBellSchema,
  }),
  process: endpoint({
    method: 'POST',
    path: '/device/processalarm',
    permission: 'alarm:handle',
    audit: 'alarm.process',
    tags,
    summary: 'Mark alarms processed or “no processing required”, with a note',
    body: alarmProcessSchema,
    data: z.object({ processed: z.number().int() }),
  }),
  export: endpoint({
    method: 'GET',
    path: '/device/alarmexport',
    permission: ['alarm:list', 'device:detail'],
    tags,
    kind: 'file',
    summary: 'The filtered alarms as an .xlsx file',
    query: alarmListQuerySchema.omit({ page: true, limit: true, after: true }).extend({ lang: z.enum(LANGUAGES).default('en') }),
    data: z.null(),
  }),
};
