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
  historyPageSchema,
  paramGroupSchema,
  setParamValuesSchema,
  detailParamSchema,
} from '../devicedetail.js';
import { pageOf } from '../envelope.js';
import { endpoint } from '../endpoint.js';

const tags = ['device details'];

/** §7 device details: grouped live parameters, set parameters, history, charts, energy. */
export const deviceDetailApi = {
  groupInfo: endpoint({
    method: 'GET',
    path: '/device/groupinfo',
    permission: ['device:detail', 'device:list'],
    tags,
    summary: 'The parameter groups of the device’s type, in order, with their parameter definitions',
    query: idQuerySchema,
    data: z.array(paramGroupSchema),
  }),
  displayGroups: endpoint({
    method: 'GET',
    path: '/device/displayparamgrouplist',
    permission: ['device:detail', 'device:list'],
    tags,
    summary: 'The device’s parameters grouped as its type defines them, each with its newest value and time',
    query: idQuerySchema,
    data: z.array(displayGroupSchema),
  }),
  setParamList: endpoint({
    method: 'GET',
    path: '/device/setparamlist',
    permission: ['device:detail', 'device:command'],
    tags,
    summary: 'The writable parameters of the device’s type',
    query: idQuerySchema,
    data: z.array(detailParamSchema),
  }),
  setParams: endpoint({
    method: 'POST',
    path: '/device/setparams',
    permission: 'device:command',
    audit: 'device.setparams',
    tags,
    summary:
      'Set writable parameters: checked against the definitions, then sent as a setParams command; ' +
      'its status follows live (DEVICE_COMMAND) and in /device/commandlist',
    body: setParamValuesSchema,
    data: commandDtoSchema,
  }),
  commands: endpoint({
    method: 'GET',
    path: '/device/commandlist',
    permission: ['device:detail', 'device:command'],
    tags,
    summary: 'The commands sent to the device, newest first',
    query: commandListQuerySchema,
    data: pageOf(commandDtoSchema),
  }),
  history: endpoint({
    method: 'GET',
    path: '/device/devicehistoricallist',
    permission: ['device:detail', 'device:list'],
    tags,
    summary: 'Messages of the device in a time range with the chosen parameters, paged',
    query: historyQuerySchema,
    data: historyPageSchema,
  }),
  historyExport: endpoint({
    method: 'GET',
    path: '/device/devicehistoricallist/export',
    permission: ['device:detail', 'device:list'],
    tags,
    kind: 'file',
    summary: 'The same rows as a .xlsx or .csv download',
    query: historyExportQuerySchema,
    data: z.null(),
  }),
  chart: endpoint({
    method: 'GET',
    path: '/device/devicehistoricallisttoecharts',
    permission: ['device:detail', 'device:list'],
    tags,
    summary: 'Chart series over any range, downsampled on the server (min/max per bucket) to at most `points` per series',
    query: chartQuerySchema,
    data: chartDataSchema,
  }),
  energy: endpoint({
    method: 'GET',
    path: '/device/totalElectrictityConsumption',
    permission: ['device:detail', 'device:list'],
    tags,
    summary: 'Charged and discharged kWh per day, week or month, from the battery’s counters',
    query: energyQuerySchema,
    data: energyDataSchema,
  }),
};
