import type { FastifyPluginAsync } from 'fastify';
import { ErrorCode, deviceDataApi as api } from '@iot/contract';
import { AppError } from '../../lib/errors.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
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
export const deviceDataRoutes: FastifyPluginAsync<{ data: DeviceDataService }> = async (app, { data }) => {
  route(
    app,
    api.ingest,
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
    { config: { rateLimit: { max: 1200, timeWindow: '1 minute' } } },
  );
  route(app, api.latest, async (req) => ok(await data.latest(authOf(req), req.query.id)));
  route(app, api.logs, async (req) => ok(await data.logs(authOf(req), req.query)));
};
