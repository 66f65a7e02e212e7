import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorCode,
  UPLINK_KINDS,
  deviceLogDtoSchema,
  deviceLogQuerySchema,
  envelope,
  idQuerySchema,
  latestValueSchema,
  pageOf,
  uplinkResultSchema,
} from '@iot/contract';
import { AppError } from '../../lib/errors.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { DeviceDataService } from './devicedata.service.js';

/** `Authorization: Basic base64(sn:secret)` of an HTTP device. */
function basicCredentials(header: string | undefined): { sn: string; secret: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1]!, 'base64').toString();
  const at = text.indexOf(':');
  // A NUL byte names no device (PostgreSQL text cannot hold one): the same 60204 as a wrong secret.
  if (at <= 0 || text.includes('\u0000')) return undefined;
  return { sn: text.slice(0, at), secret: text.slice(at + 1) };
}

/**
 * Device data: the HTTP uplink devices without MQTT use (docs/PROTOCOL.md), the latest values of
 * a device and the device log.
 */
export const deviceDataRoutes: FastifyPluginAsyncZod<{ data: DeviceDataService }> = async (app, { data }) => {
  app.post(
    '/ingest/:kind',
    {
      // Devices authenticate themselves (HTTP Basic: SN and secret), not with a console session.
      // Not an operator's action: the device log records what devices send.
      config: { permission: 'public', audit: false, rateLimit: { max: 1200, timeWindow: '1 minute' } },
      schema: {
        tags: ['device protocol'],
        summary: 'HTTP uplink of a device: the same messages as MQTT; answers the commands waiting for it',
        params: z.object({ kind: z.enum(UPLINK_KINDS) }),
        body: z.record(z.string(), z.unknown()),
        response: { 200: envelope(uplinkResultSchema) },
      },
    },
    async (req, reply) => {
      const credentials = basicCredentials(req.headers.authorization);
      if (!credentials) {
        reply.header('www-authenticate', 'Basic realm="devices"');
        throw new AppError(ErrorCode.BAD_CREDENTIALS, 'device credentials required: Basic base64(sn:secret)');
      }
      const result = await data.httpUplink(credentials.sn, credentials.secret, req.params.kind, req.body);
      if (!result) {
        reply.header('www-authenticate', 'Basic realm="devices"');
        throw new AppError(ErrorCode.BAD_CREDENTIALS, 'unknown device or wrong secret');
      }
      return ok(result);
    },
  );

  app.get(
    '/device/latest',
    {
      config: { permission: 'device:list' },
      schema: {
        tags: ['devices'],
        summary: 'The newest value of each parameter of a device',
        querystring: idQuerySchema,
        response: { 200: envelope(z.array(latestValueSchema)) },
      },
    },
    async (req) => ok(await data.latest(authOf(req), req.query.id)),
  );

  app.get(
    '/logs/devicelogs',
    {
      config: { permission: 'log:device' },
      schema: {
        tags: ['logs'],
        summary: 'Device log: connections, state changes, rejected messages with their reason, device alarms, acknowledgements',
        querystring: deviceLogQuerySchema,
        response: { 200: envelope(pageOf(deviceLogDtoSchema)) },
      },
    },
    async (req) => ok(await data.logs(authOf(req), req.query)),
  );
};
