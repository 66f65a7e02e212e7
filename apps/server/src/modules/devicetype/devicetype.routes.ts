import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alarmRuleDtoSchema,
  deviceTypeCreateSchema,
  deviceTypeDtoSchema,
  deviceTypeEditSchema,
  deviceTypeListQuerySchema,
  envelope,
  idQuerySchema,
  pageOf,
  paramDtoSchema,
  setAlarmsSchema,
  setParamsSchema,
} from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { DeviceTypeService } from './devicetype.service.js';

const none = envelope(z.null());
const typeOption = deviceTypeDtoSchema.pick({ id: true, code: true, name: true, nameEn: true, nameEs: true, nameJa: true });

export const deviceTypeRoutes: FastifyPluginAsyncZod<{ types: DeviceTypeService }> = async (app, { types }) => {
  const tags = ['device types'];
  app.get(
    '/devicetype/list',
    { config: { permission: 'devicetype:list' }, schema: { tags, querystring: deviceTypeListQuerySchema, response: { 200: envelope(pageOf(deviceTypeDtoSchema)) } } },
    async (req) => ok(await types.list(authOf(req), req.query)),
  );
  app.get(
    '/devicetype/item',
    { config: { permission: 'devicetype:list' }, schema: { tags, querystring: idQuerySchema, response: { 200: envelope(deviceTypeDtoSchema) } } },
    async (req) => ok(await types.item(authOf(req), req.query.id)),
  );
  app.get(
    '/devicetype/typeoptionslist',
    {
      config: { permission: ['devicetype:list', 'device:list', 'device:add', 'device:edit'] },
      schema: { tags, summary: 'Types for pickers', response: { 200: envelope(z.array(typeOption)) } },
    },
    async (req) => ok(await types.options(authOf(req))),
  );
  app.get(
    '/user/devicetypelist',
    {
      config: { permission: 'authenticated' },
      schema: { tags, summary: 'Device types visible to the caller', response: { 200: envelope(z.array(typeOption)) } },
    },
    async (req) => ok(await types.options(authOf(req))),
  );
  app.post(
    '/devicetype/addtype',
    { config: { permission: 'devicetype:add', audit: 'devicetype.add' }, schema: { tags, body: deviceTypeCreateSchema, response: { 200: envelope(z.object({ id: z.number().int() })) } } },
    async (req) => ok({ id: await types.create(actorOf(req), req.body) }, 'device type created'),
  );
  app.post(
    '/devicetype/edittype',
    { config: { permission: 'devicetype:edit', audit: 'devicetype.edit' }, schema: { tags, body: deviceTypeEditSchema, response: { 200: none } } },
    async (req) => {
      await types.edit(actorOf(req), req.body);
      return ok(null, 'device type updated');
    },
  );
  app.delete(
    '/devicetype/deletetype',
    { config: { permission: 'devicetype:delete', audit: 'devicetype.delete' }, schema: { tags, querystring: idQuerySchema, response: { 200: none } } },
    async (req) => {
      await types.remove(actorOf(req), req.query.id);
      return ok(null, 'device type deleted');
    },
  );
  app.get(
    '/devicetype/setparam',
    { config: { permission: ['devicetype:paramview', 'devicetype:param'] }, schema: { tags, summary: 'Parameter settings of a type', querystring: idQuerySchema, response: { 200: envelope(z.array(paramDtoSchema)) } } },
    async (req) => ok(await types.params(authOf(req), req.query.id)),
  );
  app.post(
    '/devicetype/addsetparam',
    {
      config: { permission: 'devicetype:param', audit: 'devicetype.setparam' },
      schema: { tags, summary: 'Replace the parameter settings of a type', body: setParamsSchema, response: { 200: none } },
    },
    async (req) => {
      await types.setParams(actorOf(req), req.body.id, req.body.params);
      return ok(null, 'parameters saved');
    },
  );
  app.get(
    '/devicetype/setalarm',
    { config: { permission: ['devicetype:alarmview', 'devicetype:alarm'] }, schema: { tags, summary: 'Alarm rules of a type', querystring: idQuerySchema, response: { 200: envelope(z.array(alarmRuleDtoSchema)) } } },
    async (req) => ok(await types.alarms(authOf(req), req.query.id)),
  );
  app.post(
    '/devicetype/addsetalarm',
    {
      config: { permission: 'devicetype:alarm', audit: 'devicetype.setalarm' },
      schema: { tags, summary: 'Replace the alarm rules of a type', body: setAlarmsSchema, response: { 200: none } },
    },
    async (req) => {
      await types.setAlarms(actorOf(req), req.body.id, req.body.rules);
      return ok(null, 'alarm rules saved');
    },
  );
};
