import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, brokerApi as api } from '@iot/contract';
import { AppError, forbidden } from '../../lib/errors.js';
import { route, type RouteExtras } from '../../plugins/endpoint.js';
import { accessOfAcc, accessOfAction, type BrokerAuthService } from './broker.service.js';

/** The header (EMQX: `headers`) or query parameter (mosquitto-go-auth: in the URI) with BROKER_AUTH_SECRET. */
export const BROKER_SECRET_HEADER = 'x-broker-secret';

function givenSecret(req: FastifyRequest): string | undefined {
  const h = req.headers[BROKER_SECRET_HEADER];
  if (typeof h === 'string' && h) return h;
  const q = (req.query as { secret?: unknown } | undefined)?.secret;
  return typeof q === 'string' && q ? q : undefined;
}

/**
 * Authentication and authorization hooks an external broker calls (docs/OPERATIONS.md, "Running
 * with an external broker"): EMQX 5 HTTP authentication and authorization, and the HTTP backend
 * of mosquitto-go-auth. They answer only a broker that sends BROKER_AUTH_SECRET (the
 * `X-Broker-Secret` header or `?secret=`), so the public cannot probe device secrets through them;
 * unset, they refuse everything with 403 and the envelope (40300, reason `brokerHooksOff`): the
 * status is what a broker reads (go-auth: deny, EMQX: ignore), the reason tells an operator what
 * to set. Callers without the secret are rate limited.
 */
export const brokerRoutes: FastifyPluginAsync<{ broker: BrokerAuthService }> = async (app, { broker }) => {
  // mosquitto-go-auth's `http_params_mode form` and EMQX's form bodies.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const guard = async (req: FastifyRequest) => {
    if (!broker.enabled) throw forbidden('brokerHooksOff');
    if (!broker.secretOk(givenSecret(req))) {
      throw new AppError(ErrorCode.BAD_CREDENTIALS, `broker secret missing or wrong (${BROKER_SECRET_HEADER} header or ?secret=)`);
    }
  };
  const extras: RouteExtras = {
    preValidation: guard,
    // Only callers without the right secret count: a busy broker is never slowed.
    config: { rateLimit: { max: 30, timeWindow: '1 minute', allowList: (req: FastifyRequest) => broker.secretOk(givenSecret(req)) } },
  };
  const goAuth = (reply: FastifyReply, ok: boolean, error = 'denied') =>
    reply.status(ok ? 200 : 403).send(ok ? { ok: true, error: '' } : { ok: false, error });

  route(
    app,
    api.emqxAuthn,
    async (req) => {
      const r = await broker.login(req.body.username, req.body.password, req.body.clientid);
      return r.allow ? { result: 'allow' as const, is_superuser: r.superuser } : { result: 'deny' as const, is_superuser: false };
    },
    extras,
  );
  route(
    app,
    api.emqxAuthz,
    async (req) => {
      const allowed = await broker.may(req.body.username, req.body.topic, accessOfAction(req.body.action), req.body.clientid);
      return { result: allowed ? ('allow' as const) : ('deny' as const) };
    },
    extras,
  );
  route(
    app,
    api.goAuthUser,
    async (req, reply) => {
      const r = await broker.login(req.body.username, req.body.password, req.body.clientid);
      return goAuth(reply, r.allow, 'unknown device or wrong secret');
    },
    extras,
  );
  route(app, api.goAuthSuperuser, async (req, reply) => goAuth(reply, broker.superuser(req.body.username), 'not a superuser'), extras);
  route(
    app,
    api.goAuthAcl,
    async (req, reply) => {
      const allowed = await broker.may(req.body.username, req.body.topic, accessOfAcc(Number(req.body.acc)), req.body.clientid);
      return goAuth(reply, allowed, 'topic not allowed');
    },
    extras,
  );
};
