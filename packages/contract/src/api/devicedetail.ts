import { z } from 'zod';
import { idQuerySchema } from '../admin.js';
import {
  chartDataSchema,
  chartQuerySchema,
  commandDtoSchema,
  commandListQuerySchema,
  displayGroupSchema,
  energyDataSchema,
  energyQuerySchema,
  historyExportQuerySchema,
  historyQuerySchema,
  historyRangeSchema,
  historyPageSchema,
  paramGroupSchema,
  setParamValuesSchema,
  detailParamSchema,
} from '../devicedetail.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { deviceDetailRoutes } from '../routes/devicedetail.js';

const tags = ['device details'];

/** The schemas of `deviceDetailRoutes` (routes/devicedetail.ts). */
export const deviceDetailSchemas = {
  groupInfo: {
    tags,
    summary: 'The parameter groups of the device’s type, in order, with their parameter definitions',
    query: idQuerySchema,
    data: z.array(paramGroupSchema),
  },
  displayGroups: {
    tags,
    summary: 'The device’s parameters grouped as its type defines them, each with its newest value and time',
    query: idQuerySchema,
    data: z.array(displayGroupSchema),
  },
  setParamList: {
    tags,
    summary: 'The writable parameters of the device’s type',
    query: idQuerySchema,
    data: z.array(detailParamSchema),
  },
  setParams: {
    tags,
    summary:
    'Set writable parameters: checked against the definitions, then sent as a setParams command; ' +
    'its status follows live (DEVICE_COMMAND) and in /device/commandlist',
    body: setParamValuesSchema,
    data: commandDtoSchema,
  },
  commands: {
    tags,
    summary: 'The commands sent to the device, newest first',
    query: commandListQuerySchema,
    data: pageOf(commandDtoSchema),
  },
  history: {
    tags,
    summary: 'Messages of the device in a time range with the chosen parameters, paged',
    query: historyQuerySchema,
    data: historyPageSchema,
  },
  historyRange: {
    tags,
    summary:
      'Where the history opens: the last day when the device sent within it, else the day up to its newest ' +
      'message; from the range’s first message when that is newer than its start',
    query: idQuerySchema,
    data: historyRangeSchema,
  },
  historyExport: {
    tags,
    summary: 'The same rows as a .xlsx or .csv download',
    query: historyExportQuerySchema,
    data: z.null(),
  },
  chart: {
    tags,
    summary: 'Chart series over any range, downsampled on the server (min/max per bucket) to at most `points` per series',
    query: chartQuerySchema,
    data: chartDataSchema,
  },
  energy: {
    tags,
    summary: 'Charged and discharged kWh per day, week or month, from the battery’s counters',
    query: energyQuerySchema,
    data: energyDataSchema,
  },
} satisfies EndpointSchemaTable;
export const deviceDetailApi = endpoints(deviceDetailRoutes, deviceDetailSchemas);
