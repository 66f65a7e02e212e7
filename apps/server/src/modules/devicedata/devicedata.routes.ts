import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ErrorCode, deviceDataApi as api } from '@iot/contract';
import { AppError } from '../../lib/errors.js';
import { findHostile } from '../../lib/hostile.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import { basicCredentials, type HttpUplink } from '../../telemetry/transports/http.js';
import type { DeviceDataService } from './devicedata.service.js';

/**
 * What an uplink refused before its handler hands to the device log: `parsed` is the body as
 * parsed (undefined when it could not be read as JSON: another content type, empty, malformed).
 * Undefined: a refusal that is no message's fault (too large, too many requests) or that a message
 * would not show (a query).
 */
function refusedBody(req: FastifyRequest, err: FastifyError | AppError): { parsed: unknown } | undefined {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_') && code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return { parsed: undefined };
  if (err instanceof SyntaxError) return { parsed: undefined };
  // Text of another content type is not read as JSON, whatever it holds (nor stored).
  const parsed = JSON_TYPE.test(req.headers['content-type'] ?? '') ? req.body : undefined;
  // The schema's: a body that is not an object, or a kind that is not one.
  const context = (err as FastifyError).validationContext;
  if ((err as FastifyError).validation && (context === 'body' || context === 'params')) return { parsed };
  // The input checks' (a NUL, a lone surrogate, absurd nesting): the ingestion refuses the same.
  if (err instanceof AppError && err.code === ErrorCode.VALIDATION && (findHostile(req.body) || findHostile(req.params))) {
    return { parsed };
  }
  return undefined;
}

const JSON_TYPE = /^\s*application\/([\w.+-]*\+)?json\s*(;|$)/i;

/**
 * Device data: the HTTP uplink devices without MQTT use (docs/PROTOCOL.md; the telemetry
 * pipeline's HTTP transport, telemetry/transports/http.ts), the latest values of a device and the
 * device log.
 */
export const deviceDataRoutes: FastifyPluginAsync<{ data: DeviceDataService; uplink: HttpUplink }> = async (app, { data, uplink }) => {
  /** Uplink requests that reached the handler (their refusals are the handler's own). */
  const handled = new WeakSet<FastifyRequest>();
  route(
    app,
    api.ingest,
    async (req, reply) => {
      handled.add(req);
      const credentials = basicCredentials(req.headers.authorization);
      if (!credentials) {
        reply.header('www-authenticate', 'Basic realm="devices"');
        throw new AppError(ErrorCode.BAD_CREDENTIALS, 'device credentials required: Basic base64(sn:secret)');
      }
      const result = await uplink.uplink(credentials.sn, credentials.secret, req.params.kind, req.body);
      if (!result) {
        reply.header('www-authenticate', 'Basic realm="devices"');
        throw new AppError(ErrorCode.BAD_CREDENTIALS, 'unknown device or wrong secret');
      }
      return ok(result);
    },
    { config: { rateLimit: { max: 1200, timeWindow: '1 minute' } } },
  );
  // A device's request refused before the handler (a body that is not JSON, of another content
  // type, empty, not an object, or holding what the database cannot store; an unknown kind) is
  // answered as any such request is (40000 naming the field), and recorded in the device log
  // as MQTT records such a message, when its credentials are a device's.
  app.addHook('onError', async (req, _reply, err) => {
    if (req.routeOptions.config.endpoint !== api.ingest || handled.has(req)) return;
    const body = refusedBody(req, err);
    if (!body) return;
    const credentials = basicCredentials(req.headers.authorization);
    if (!credentials) return;
    const kind = String((req.params as { kind?: unknown } | undefined)?.kind ?? '');
    await uplink.refused(credentials.sn, credentials.secret, kind, body.parsed).catch((e: unknown) => {
      req.log.error({ err: e }, 'refused uplink not recorded');
    });
  });
  route(app, api.latest, async (req) => ok(await data.latest(authOf(req), req.query.id)));
  route(app, api.logs, async (req) => ok(await data.logs(authOf(req), req.query)));
};
