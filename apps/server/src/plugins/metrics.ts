import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '@iot/contract';
import { UNMATCHED_ROUTE, type Metrics } from '../lib/metrics.js';
import { sameSecret } from '../lib/tokens.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Prometheus metrics at `GET /metrics`, outside `/api/v1` like the health probes, registered
 * only when METRICS_TOKEN is set (otherwise the path is unknown: 404). Prometheus sends the token
 * as `Authorization: Bearer <token>`, compared in constant time; a missing or wrong one is
 * answered 401 (the credentials are what is wrong, as for a session token), with no metric.
 *
 * Registered before the routes, so its onResponse hook times every request after it; the label
 * is the route's pattern (`/api/v1/device/list`, `/api/v1/ingest/:kind`), never the URL asked
 * for. The live channel's upgrade is hijacked by the WebSocket and never reaches onResponse, so a
 * socket's lifetime does not pass for a request's latency.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { metrics: Metrics; token: string }) => {
  const { metrics, token } = opts;

  app.addHook('onResponse', (req, reply, done) => {
    metrics.observeRequest(req.method, req.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', async (req, reply) => {
    const given = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (!sameSecret(given, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ code: ErrorCode.TOKEN_ILLEGAL, message: 'metrics need Authorization: Bearer <METRICS_TOKEN>', data: null });
    }
    const text = await metrics.render((err) => req.log.warn({ err }, 'metrics: alarm counts not read'));
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
  });
});
