import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RouteShorthandOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import {
  ENDPOINTS,
  envelope,
  type AnyEndpoint,
  type EndpointData,
  type EndpointParsedBody,
  type EndpointParsedParams,
  type EndpointParsedQuery,
  type Envelope,
} from '@iot/contract';
import type { HeavyReads } from '../lib/heavy-reads.js';
import { API_PREFIX, authOf } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract declaration the route was registered from (see `route()`). */
    endpoint?: AnyEndpoint;
  }
  interface FastifyInstance {
    /** The limits of the routes declared `heavy` (app.ts builds it from the config). */
    heavyReads: HeavyReads;
  }
}

/** How long a heavy read waits for its user's or the process's slot before it is refused. */
export const HEAVY_READ_WAIT_MS = 10_000;

/**
 * A heavy route's handler inside its caller's limits (lib/heavy-reads.ts), with a signal that
 * aborts when the connection closes before the answer is written: queued, the read gives its
 * place up; running on PostgreSQL, its statement is cancelled (db/client.ts).
 */
function heavy<R>(app: FastifyInstance, handler: (req: FastifyRequest, reply: FastifyReply) => Promise<R>) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<R> => {
    const caller = new AbortController();
    const left = () => {
      if (!reply.raw.writableFinished) caller.abort();
    };
    reply.raw.once('close', left);
    try {
      return await app.heavyReads.run(authOf(req).userId, caller.signal, () => handler(req, reply));
    } finally {
      reply.raw.off('close', left);
    }
  };
}

/** The request a handler of endpoint `E` receives: path, query and body validated by its schemas. */
export type EndpointRequest<E extends AnyEndpoint> = FastifyRequest<{
  Params: EndpointParsedParams<E>;
  Querystring: EndpointParsedQuery<E>;
  Body: EndpointParsedBody<E>;
}>;

/**
 * What a handler answers: the success envelope of `E`; for files the reply it sent; for `raw`
 * endpoints the answer itself (or the reply, when it sets another status).
 */
export type EndpointAnswer<E extends AnyEndpoint> = E['kind'] extends 'file'
  ? FastifyReply
  : E['kind'] extends 'raw'
    ? z.input<E['data']> | FastifyReply
    : Envelope<EndpointData<E>>;

/** Extra route options the declaration does not carry (rate limits, body limits, token in query). */
export interface RouteExtras {
  config?: Omit<FastifyContextConfig, 'permission' | 'audit' | 'endpoint'> & Record<string, unknown>;
  bodyLimit?: number;
  preValidation?: RouteShorthandOptions['preValidation'];
}

/**
 * Registers a route from its contract declaration (an `api` endpoint: the route of
 * packages/contract/src/routes joined with its schemas in src/api): method, path, permission and
 * audit action for the hooks, query/body schemas for validation, and the
 * envelope around `data` for serialization and the OpenAPI document. A route is one declaration
 * plus a handler that calls its service.
 */
export function route<E extends AnyEndpoint>(
  app: FastifyInstance,
  ep: E,
  handler: (req: EndpointRequest<E>, reply: FastifyReply) => Promise<EndpointAnswer<E>>,
  extras: RouteExtras = {},
): void {
  const schema: FastifySchema = { tags: [...ep.tags] };
  if (ep.summary) schema.summary = ep.summary;
  if (ep.description) schema.description = ep.description;
  if (ep.params) schema.params = ep.params;
  if (ep.query) schema.querystring = ep.query;
  if (ep.body && ep.kind !== 'upload') schema.body = ep.body;
  if (ep.kind === 'raw') schema.response = { 200: ep.data, ...ep.otherAnswers };
  else if (ep.kind !== 'file') schema.response = { 200: envelope(ep.data) };
  app.route({
    method: ep.method,
    url: ep.path,
    schema,
    bodyLimit: extras.bodyLimit,
    preValidation: extras.preValidation,
    config: {
      ...extras.config,
      permission: ep.permission,
      ...(ep.audit !== undefined ? { audit: ep.audit } : {}),
      endpoint: ep,
    },
    handler: ep.heavy
      ? heavy(app, handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>)
      : (handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>),
  });
}

const keyOf = (method: string, path: string) => `${method} ${path}`;

/**
 * Routes under /api/v1 that are deliberately not in the endpoint table because they are not
 * HTTP request/answer endpoints: the live channel's WebSocket (plugins/realtime.ts) upgrades the
 * connection and then speaks its own message protocol (contract live.ts), authenticating inside
 * the socket. The console builds its address itself (apps/web/src/lib/live.ts).
 */
export const NOT_ENDPOINTS: ReadonlySet<string> = new Set([keyOf('GET', `${API_PREFIX}/ws`)]);

/**
 * Endpoint parity: every route under /api/v1 comes from a contract declaration, and every
 * declaration is registered, or the server refuses to start (and `npm run check`, which builds
 * it, fails). Register this plugin before the API routes.
 */
export const endpointParityPlugin = fp(async (app: FastifyInstance, opts: { endpoints?: readonly AnyEndpoint[] }) => {
  const table = opts.endpoints ?? ENDPOINTS;
  const declared = new Map(table.map((ep) => [keyOf(ep.method, API_PREFIX + ep.path), ep]));
  const registered = new Set<string>();
  app.addHook('onRoute', (r) => {
    if (!r.url.startsWith(API_PREFIX)) return;
    const ep = r.config?.endpoint;
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      if (!ep && NOT_ENDPOINTS.has(keyOf(method, r.url))) continue;
      // The very declaration of the table: a route made from a look-alike is not declared.
      if (!ep || declared.get(keyOf(method, r.url)) !== ep) {
        throw new Error(`Route ${method} ${r.url} is not declared in the contract's endpoint table (packages/contract/src/routes and src/api)`);
      }
      registered.add(keyOf(method, r.url));
    }
  });
  app.addHook('onReady', async () => {
    const missing = table.filter((ep) => !registered.has(keyOf(ep.method, API_PREFIX + ep.path)));
    if (missing.length > 0) {
      throw new Error(
        `Declared endpoints without a server route: ${missing.map((ep) => `${ep.method} ${ep.path}`).join(', ')}`,
      );
    }
  });
});
