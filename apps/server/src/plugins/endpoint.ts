import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RouteShorthandOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import {
  ENDPOINTS,
  envelope,
  type AnyEndpoint,
  type EndpointData,
  type EndpointParsedBody,
  type EndpointParsedQuery,
  type Envelope,
} from '@iot/contract';
import { API_PREFIX } from './auth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract declaration the route was registered from (see `route()`). */
    endpoint?: AnyEndpoint;
  }
}

/** The request a handler of endpoint `E` receives: query and body validated by its schemas. */
export type EndpointRequest<E extends AnyEndpoint> = FastifyRequest<{
  Querystring: EndpointParsedQuery<E>;
  Body: EndpointParsedBody<E>;
}>;

/** What a handler answers: the success envelope of `E` (or, for files, the reply it sent). */
export type EndpointAnswer<E extends AnyEndpoint> = E['kind'] extends 'file'
  ? FastifyReply
  : Envelope<EndpointData<E>>;

/** Extra route options the declaration does not carry (rate limits, body limits, token in query). */
export interface RouteExtras {
  config?: Omit<FastifyContextConfig, 'permission' | 'audit' | 'endpoint'> & Record<string, unknown>;
  bodyLimit?: number;
  preValidation?: RouteShorthandOptions['preValidation'];
}

/**
 * Registers a route from its contract declaration (packages/contract/src/api): method, path,
 * permission and audit action for the hooks, query/body schemas for validation, and the
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
  if (ep.query) schema.querystring = ep.query;
  if (ep.body && ep.kind !== 'upload') schema.body = ep.body;
  if (ep.kind !== 'file') schema.response = { 200: envelope(ep.data) };
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
    handler: handler as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}

const keyOf = (method: string, path: string) => `${method} ${path}`;

/**
 * Endpoint parity: every route under /api/v1 comes from a contract declaration, and every
 * declaration is registered, or the server refuses to start (and `npm run check`, which builds
 * it, fails). Register this plugin before the API routes.
 */
export const endpointParityPlugin = fp(async (app: FastifyInstance, opts: { strict: boolean }) => {
  const registered = new Set<string>();
  app.addHook('onRoute', (r) => {
    if (!r.url.startsWith(API_PREFIX)) return;
    const ep = r.config?.endpoint;
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      if (!ep && !opts.strict) continue;
      if (!ep || API_PREFIX + ep.path !== r.url || ep.method !== method) {
        throw new Error(`Route ${method} ${r.url} is not declared in the contract's endpoint table (packages/contract/src/api)`);
      }
      registered.add(keyOf(method, r.url));
    }
  });
  app.addHook('onReady', async () => {
    const missing = ENDPOINTS.filter((ep) => !registered.has(keyOf(ep.method, API_PREFIX + ep.path)));
    if (missing.length > 0) {
      throw new Error(
        `Declared endpoints without a server route: ${missing.map((ep) => `${ep.method} ${ep.path}`).join(', ')}`,
      );
    }
  });
});
