import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deviceCredentialSchema,
  deviceDtoSchema,
  deviceEditSchema,
  deviceFieldsSchema,
  deviceListQuerySchema,
  deviceSearchItemSchema,
  deviceSearchQuerySchema,
  envelope,
  idQuerySchema,
  idsQuerySchema,
  moveDevicesSchema,
  pageOf,
  pageQuerySchema,
  idNumberSchema,
  idSchema,
} from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { DeviceService } from './device.service.js';

const count = envelope(z.object({ count: z.number().int() }));

export const deviceRoutes: FastifyPluginAsyncZod<{ devices: DeviceService }> = async (app, { devices }) => {
  const tags = ['devices'];
  app.get(
    '/device/list',
    { config: { permission: 'device:list' }, schema: { tags, summary: 'Devices with filters, sorting and paging', querystring: deviceListQuerySchema, response: { 200: envelope(pageOf(deviceDtoSchema)) } } },
    async (req) => ok(await devices.list(authOf(req), req.query)),
  );
  app.get(
    '/device/seachList',
    { config: { permission: 'device:list' }, schema: { tags, summary: 'Typeahead by SN or name prefix', querystring: deviceSearchQuerySchema, response: { 200: envelope(z.array(deviceSearchItemSchema)) } } },
    async (req) => ok(await devices.search(authOf(req), req.query.q, req.query.limit)),
  );
  app.get(
    '/device/basic',
    { config: { permission: ['device:list', 'device:detail'] }, schema: { tags, querystring: idQuerySchema, response: { 200: envelope(deviceDtoSchema) } } },
    async (req) => ok(await devices.basic(authOf(req), req.query.id)),
  );
  app.get(
    '/device/subdevicelist',
    {
      config: { permission: ['device:list', 'device:detail'] },
      schema: { tags, querystring: pageQuerySchema.extend({ id: idSchema }), response: { 200: envelope(pageOf(deviceDtoSchema)) } },
    },
    async (req) => ok(await devices.subDevices(authOf(req), req.query.id, req.query.page, req.query.limit)),
  );
  app.get(
    '/device/subnum',
    { config: { permission: ['device:list', 'device:detail'] }, schema: { tags, querystring: idQuerySchema, response: { 200: count } } },
    async (req) => ok({ count: await devices.subCount(authOf(req), req.query.id) }),
  );
  app.post(
    '/device/add',
    {
      config: { permission: 'device:add', audit: 'device.add' },
      schema: { tags, summary: 'Create a device; answers its ingestion secret once', body: deviceFieldsSchema, response: { 200: envelope(deviceCredentialSchema.extend({ id: z.number().int() })) } },
    },
    async (req) => ok(await devices.create(actorOf(req), req.body), 'device created'),
  );
  app.post(
    '/device/edit',
    { config: { permission: 'device:edit', audit: 'device.edit' }, schema: { tags, body: deviceEditSchema, response: { 200: envelope(z.null()) } } },
    async (req) => {
      await devices.edit(actorOf(req), req.body);
      return ok(null, 'device updated');
    },
  );
  app.delete(
    '/device/delete',
    { config: { permission: 'device:delete', audit: 'device.delete' }, schema: { tags, summary: 'Delete devices (id=1,2,3)', querystring: idsQuerySchema, response: { 200: count } } },
    async (req) => ok({ count: await devices.remove(actorOf(req), req.query.id) }, 'devices deleted'),
  );
  app.post(
    '/device/editdevicelistproject',
    { config: { permission: 'device:edit', audit: 'device.move' }, schema: { tags, summary: 'Move devices to a project (or none)', body: moveDevicesSchema, response: { 200: count } } },
    async (req) => ok({ count: await devices.move(actorOf(req), req.body.ids, req.body.projectId) }, 'devices moved'),
  );
  app.post(
    '/device/credential',
    {
      config: { permission: 'device:edit', audit: 'device.credential' },
      schema: { tags, summary: 'Regenerate a device’s ingestion secret (shown once)', body: z.object({ id: idNumberSchema }), response: { 200: envelope(deviceCredentialSchema) } },
    },
    async (req) => ok(await devices.regenerateCredential(actorOf(req), req.body.id), 'new secret generated'),
  );
};
