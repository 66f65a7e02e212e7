import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorCode, PUBLIC } from '@iot/contract';
import { AppError } from '../../lib/errors.js';
import { accessOfAcc, accessOfAction, type BrokerAuthService } from './broker.service.js';

/** The header (EMQX: `headers`) or query parameter (mosquitto-go-auth: in the URI) with BROKER_AUTH_SECRET. */
export const BROKER_SECRET_HEADER = 'x-broker-secret';

function givenSecret(req: FastifyRequest): string | undefined {
  const h = req.headers[BROKER_SECRET_HEADER];
  if (typeof h === 'string' && h) return h;
  const q = (req.query as { secret?: unknown } | undefined)?.secret;
  return typeof q === 'string' && q ? q : undefined;
}

/** Brokers send strings, numbers (go-auth's `acc` in JSON) or nothing; all become strings. */
const field = z
  .union([z.string().max(1024), z.number(), z.boolean(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null ? '' : String(v)));

const loginBody = z.object({ username: field, password: field, clientid: field });
const emqxAuthzBody = z.object({ username: field, clientid: field, topic: field, action: field });
const goAuthSuperBody = z.object({ username: field });
const goAuthAclBody = z.object({ username: field, clientid: field, topic: field, acc: field });
const secretQuery = z.object({ secret: z.string().max(256).optional() });

const emqxAuthnAnswer = z.object({ result: z.enum(['allow', 'deny', 'ignore']), is_superuser: z.boolean() });
const emqxAuthzAnswer = z.object({ result: z.enum(['allow', 'deny', 'ignore']) });
/** mosquitto-go-auth: the status decides (`http_response_mode status`), `ok` too (`json`). */
const goAuthAnswer = z.object({ ok: z.boolean(), error: z.string() });

/**
 * Authentication and authorization hooks an external broker calls (docs/OPERATIONS.md, "Running
 * with an external broker"): EMQX 5 HTTP authentication and authorization, and the HTTP backend
 * of mosquitto-go-auth. They answer only a broker that sends BROKER_AUTH_SECRET (the
 * `X-Broker-Secret` header or `?secret=`), so the public cannot probe device secrets through them;
 * unset, they refuse everything. Callers without the secret are rate limited.
 */
export const brokerRoutes: FastifyPluginAsyncZod<{ broker: BrokerAuthService }> = async (app, { broker }) => {
  // mosquitto-go-auth's `http_params_mode form` and EMQX's form bodies.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const guard = async (req: FastifyRequest) => {
    if (!broker.enabled) throw new AppError(ErrorCode.FORBIDDEN, 'broker hooks are off: set BROKER_AUTH_SECRET');
    if (!broker.secretOk(givenSecret(req))) {
      throw new AppError(ErrorCode.BAD_CREDENTIALS, `broker secret missing or wrong (${BROKER_SECRET_HEADER} header or ?secret=)`);
    }
  };
  const config = {
    // The broker, not a console user; the device log records refusals.
    permission: PUBLIC,
    audit: false as const,
    // Only callers without the right secret count: a busy broker is never slowed.
    rateLimit: { max: 30, timeWindow: '1 minute', allowList: (req: FastifyRequest) => broker.secretOk(givenSecret(req)) },
  };
  const tags = ['broker hooks'];
  const goAuth = (reply: FastifyReply, ok: boolean, error = 'denied') =>
    reply.status(ok ? 200 : 403).send(ok ? { ok: true, error: '' } : { ok: false, error });

  app.post(
    '/broker/emqx/authn',
    {
      config,
      preValidation: guard,
      schema: {
        tags,
        summary: 'EMQX 5 HTTP authentication: device SN + secret, or the console’s own login (superuser)',
        querystring: secretQuery,
        body: loginBody,
        response: { 200: emqxAuthnAnswer },
      },
    },
    async (req) => {
      const r = await broker.login(req.body.username, req.body.password, req.body.clientid);
      return r.allow ? { result: 'allow' as const, is_superuser: r.superuser } : { result: 'deny' as const, is_superuser: false };
    },
  );

  app.post(
    '/broker/emqx/authz',
    {
      config,
      preValidation: guard,
      schema: {
        tags,
        summary: 'EMQX 5 HTTP authorization: a device publishes to dev/<its sn>/<kind>, subscribes to dev/<its sn>/cmd',
        querystring: secretQuery,
        body: emqxAuthzBody,
        response: { 200: emqxAuthzAnswer },
      },
    },
    async (req) => {
      const allowed = await broker.may(req.body.username, req.body.topic, accessOfAction(req.body.action));
      return { result: allowed ? ('allow' as const) : ('deny' as const) };
    },
  );

  app.post(
    '/broker/mosquitto/user',
    {
      config,
      preValidation: guard,
      schema: {
        tags,
        summary: 'mosquitto-go-auth HTTP backend, user check: 200 allows, 403 refuses',
        querystring: secretQuery,
        body: loginBody,
        response: { 200: goAuthAnswer, 403: goAuthAnswer },
      },
    },
    async (req, reply) => {
      const r = await broker.login(req.body.username, req.body.password, req.body.clientid);
      return goAuth(reply, r.allow, 'unknown device or wrong secret');
    },
  );

  app.post(
    '/broker/mosquitto/superuser',
    {
      config,
      preValidation: guard,
      schema: {
        tags,
        summary: 'mosquitto-go-auth HTTP backend, superuser check: only the console’s own login',
        querystring: secretQuery,
        body: goAuthSuperBody,
        response: { 200: goAuthAnswer, 403: goAuthAnswer },
      },
    },
    async (req, reply) => goAuth(reply, broker.superuser(req.body.username), 'not a superuser'),
  );

  app.post(
    '/broker/mosquitto/acl',
    {
      config,
      preValidation: guard,
      schema: {
        tags,
        summary: 'mosquitto-go-auth HTTP backend, ACL check (acc 1 read, 2 write, 4 subscribe)',
        querystring: secretQuery,
        body: goAuthAclBody,
        response: { 200: goAuthAnswer, 403: goAuthAnswer },
      },
    },
    async (req, reply) => {
      const allowed = await broker.may(req.body.username, req.body.topic, accessOfAcc(Number(req.body.acc)));
      return goAuth(reply, allowed, 'topic not allowed');
    },
  );
};
