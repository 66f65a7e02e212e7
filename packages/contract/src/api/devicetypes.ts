import { z } from 'zod';
import { idQuerySchema } from '../admin.js';
import {
  alarmRuleDtoSchema,
  deviceTypeCreateSchema,
  deviceTypeDtoSchema,
  deviceTypeEditSchema,
  deviceTypeListQuerySchema,
  deviceTypeOptionSchema,
  paramDtoSchema,
  setAlarmsSchema,
  setParamsSchema,
} from '../devices.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { deviceTypeRoutes } from '../routes/devicetypes.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['device types'];

/** The schemas of `deviceTypeRoutes` (routes/devicetypes.ts). */
export const deviceTypeSchemas = {
  list: { tags, query: deviceTypeListQuerySchema, data: pageOf(deviceTypeDtoSchema) },
  item: { tags, query: idQuerySchema, data: deviceTypeDtoSchema },
  options: { tags, summary: 'Types for pickers', data: z.array(deviceTypeOptionSchema) },
  visible: { tags, summary: 'Device types visible to the caller', data: z.array(deviceTypeOptionSchema) },
  add: { tags, body: deviceTypeCreateSchema, data: createdSchema },
  edit: { tags, body: deviceTypeEditSchema, data: noDataSchema },
  remove: { tags, query: idQuerySchema, data: noDataSchema },
  params: { tags, summary: 'Parameter settings of a type', query: idQuerySchema, data: z.array(paramDtoSchema) },
  setParams: { tags, summary: 'Replace the parameter settings of a type', body: setParamsSchema, data: noDataSchema },
  alarms: { tags, summary: 'Alarm rules of a type', query: idQuerySchema, data: z.array(alarmRuleDtoSchema) },
  setAlarms: { tags, summary: 'Replace the alarm rules of a type', body: setAlarmsSchema, data: noDataSchema },
} satisfies EndpointSchemaTable;
export const deviceTypeApi = endpoints(deviceTypeRoutes, deviceTypeSchemas);
