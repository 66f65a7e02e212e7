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
import { endpoint } from '../endpoint.js';
import { AUTHENTICATED } from '../permissions.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['device types'];

/** §3 device types: the types, their parameters and alarm rules. */
export const deviceTypeApi = {
  list: endpoint({
    method: 'GET',
    path: '/devicetype/list',
    permission: 'devicetype:list',
    tags,
    query: deviceTypeListQuerySchema,
    data: pageOf(deviceTypeDtoSchema),
  }),
  item: endpoint({
    method: 'GET',
    path: '/devicetype/item',
    permission: 'devicetype:list',
    tags,
    query: idQuerySchema,
    data: deviceTypeDtoSchema,
  }),
  options: endpoint({
    method: 'GET',
    path: '/devicetype/typeoptionslist',
    permission: ['devicetype:list', 'device:list', 'device:add', 'device:edit'],
    tags,
    summary: 'Types for pickers',
    data: z.array(deviceTypeOptionSchema),
  }),
  visible: endpoint({
    method: 'GET',
    path: '/user/devicetypelist',
    permission: AUTHENTICATED,
    tags,
    summary: 'Device types visible to the caller',
    data: z.array(deviceTypeOptionSchema),
  }),
  add: endpoint({
    method: 'POST',
    path: '/devicetype/addtype',
    permission: 'devicetype:add',
    audit: 'devicetype.add',
    tags,
    body: deviceTypeCreateSchema,
    data: createdSchema,
  }),
  edit: endpoint({
    method: 'POST',
    path: '/devicetype/edittype',
    permission: 'devicetype:edit',
    audit: 'devicetype.edit',
    tags,
    body: deviceTypeEditSchema,
    data: noDataSchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/devicetype/deletetype',
    permission: 'devicetype:delete',
    audit: 'devicetype.delete',
    tags,
    query: idQuerySchema,
    data: noDataSchema,
  }),
  params: endpoint({
    method: 'GET',
    path: '/devicetype/setparam',
    permission: ['devicetype:paramview', 'devicetype:param'],
    tags,
    summary: 'Parameter settings of a type',
    query: idQuerySchema,
    data: z.array(paramDtoSchema),
  }),
  setParams: endpoint({
    method: 'POST',
    path: '/devicetype/addsetparam',
    permission: 'devicetype:param',
    audit: 'devicetype.setparam',
    tags,
    summary: 'Replace the parameter settings of a type',
    body: setParamsSchema,
    data: noDataSchema,
  }),
  alarms: endpoint({
    method: 'GET',
    path: '/devicetype/setalarm',
    permission: ['devicetype:alarmview', 'devicetype:alarm'],
    tags,
    summary: 'Alarm rules of a type',
    query: idQuerySchema,
    data: z.array(alarmRuleDtoSchema),
  }),
  setAlarms: endpoint({
    method: 'POST',
    path: '/devicetype/addsetalarm',
    permission: 'devicetype:alarm',
    audit: 'devicetype.setalarm',
    tags,
    summary: 'Replace the alarm rules of a type',
    body: setAlarmsSchema,
    data: noDataSchema,
  }),
};
