import type { z } from 'zod';
import type { AuditAction } from './audit.js';
import type { PermissionCode, RoutePermission } from './permissions.js';

/**
 * One declaration per API route, shared by the server and the console (docs/ARCHITECTURE.md,
 * "One endpoint table"). The server registers the route from it (`route()` in
 * apps/server/src/plugins/endpoint.ts): method, path under /api/v1, the permission and audit
 * action its hooks enforce, and the zod schemas that validate the query and body and document
 * the answer. The console calls it through `api()` (apps/web/src/lib/api.ts), so what it sends
 * is `EndpointQuery`/`EndpointBody` and what it gets is `EndpointData`, never a hand-written
 * twin. `npm run check` fails when a declared endpoint is not registered or a route under
 * /api/v1 is not declared.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How the answer travels: `json` is the `{code, message, data}` envelope around `data`;
 * `file` is a download (the body is the file, errors are still envelopes); an `upload` takes
 * multipart form data instead of a JSON body and answers an envelope; a `raw` endpoint answers
 * `data` itself, without the envelope (hooks a machine calls, e.g. an MQTT broker).
 */
export type EndpointKind = 'json' | 'file' | 'upload' | 'raw';

export interface EndpointDef<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  D extends z.ZodType = z.ZodType,
  P extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  /** Path under /api/v1, as the spec names it; `:name` segments are filled from `params`. */
  path: `/${string}`;
  /** What the caller needs: a permission code, any of several, or PUBLIC / AUTHENTICATED. */
  permission: RoutePermission | readonly PermissionCode[];
  /** The operation-log action of a state-changing route; `false` when it changes no state. */
  audit?: AuditAction | false;
  /** OpenAPI grouping. */
  tags: readonly string[];
  summary?: string;
  description?: string;
  kind?: EndpointKind;
  /** The `:name` segments of the path. */
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The envelope's `data` (for `file` endpoints: what an error envelope would carry, `null`;
   * for `raw` endpoints: the whole answer).
   */
  data: D;
  /** `raw` endpoints only: answers with another status than 200 (e.g. a hook's 403 refusal). */
  otherAnswers?: Readonly<Record<number, z.ZodType>>;
}

/**
 * Checks a declaration and keeps its literal method, kind and exact schema types (the kind
 * defaults to `json`).
 */
export function endpoint<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  D extends z.ZodType = z.ZodType,
  P extends z.ZodType | undefined = undefined,
  K extends EndpointKind = 'json',
>(def: EndpointDef<Q, B, D, P> & { kind?: K }): EndpointDef<Q, B, D, P> & { kind: K } {
  return { ...def, kind: (def.kind ?? 'json') as K };
}

type AnyEndpoint = EndpointDef<z.ZodType | undefined, z.ZodType | undefined, z.ZodType, z.ZodType | undefined>;

type SchemaInput<S> = S extends z.ZodType ? z.input<S> : undefined;
type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined;

type QueryOf<E> = E extends EndpointDef<infer Q, z.ZodType | undefined, z.ZodType, z.ZodType | undefined> ? Q : undefined;
type BodyOf<E> = E extends EndpointDef<z.ZodType | undefined, infer B, z.ZodType, z.ZodType | undefined> ? B : undefined;
type ParamsOf<E> = E extends EndpointDef<z.ZodType | undefined, z.ZodType | undefined, z.ZodType, infer P> ? P : undefined;

/** What the console sends as the query string (defaults may be left out). */
export type EndpointQuery<E extends AnyEndpoint> = SchemaInput<QueryOf<E>>;
/** What the console sends as the JSON body. */
export type EndpointBody<E extends AnyEndpoint> = SchemaInput<BodyOf<E>>;
/** What the caller fills into the path's `:name` segments. */
export type EndpointParams<E extends AnyEndpoint> = SchemaInput<ParamsOf<E>>;
/** The path parameters as the server's handler receives them. */
export type EndpointParsedParams<E extends AnyEndpoint> = SchemaOutput<ParamsOf<E>>;
/** The query as the server's handler receives it (validated, coerced, defaults applied). */
export type EndpointParsedQuery<E extends AnyEndpoint> = SchemaOutput<QueryOf<E>>;
/** The body as the server's handler receives it. */
export type EndpointParsedBody<E extends AnyEndpoint> = SchemaOutput<BodyOf<E>>;
/** The envelope's `data` of a success. */
export type EndpointData<E extends AnyEndpoint> = z.output<E['data']>;

export type { AnyEndpoint };
