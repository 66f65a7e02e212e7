import type { AuditAction } from './audit.js';
import type { PermissionCode, RoutePermission } from './permissions.js';

/**
 * The zod-free half of the endpoint table (docs/ARCHITECTURE.md, "One endpoint table"): what a
 * route is and what the server's hooks enforce, as plain values. The console calls routes
 * (`api(projectRoutes.list, …)`, apps/web/src/lib/api.ts) and so never loads a schema; the
 * server registers the whole endpoint, this route plus its schemas (`endpoints()` in
 * endpoint.ts, the tables in api/). Routes live in routes/, one file per api/ file.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How the answer travels: `json` is the `{code, message, data}` envelope around `data`;
 * `file` is a download (the body is the file, errors are still envelopes); an `upload` takes
 * multipart form data instead of a JSON body and answers an envelope; a `raw` endpoint answers
 * `data` itself, without the envelope (hooks a machine calls, e.g. an MQTT broker).
 */
export type EndpointKind = 'json' | 'file' | 'upload' | 'raw';

/** A route as declared in routes/ (the kind defaults to `json`). */
export interface RouteDef {
  method: HttpMethod;
  /** Path under /api/v1, as the spec names it; `:name` segments are filled from `params`. */
  path: `/${string}`;
  /** What the caller needs: a permission code, any of several, or PUBLIC / AUTHENTICATED. */
  permission: RoutePermission | readonly PermissionCode[];
  /** The operation-log action of a state-changing route; `false` when it changes no state. */
  audit?: AuditAction | false;
  kind?: EndpointKind;
  /**
   * A heavy read: one request may read a long range or a whole export (history, charts, energy,
   * exports). The server runs at most a few at once per user and overall, on connections of
   * their own, cancelled when the caller goes away (docs/decisions/0022-heavy-reads-bounded.md).
   */
  heavy?: true;
}

/** The key of a route's schema types: declared for the type checker, never present at run time. */
export declare const SCHEMAS: unique symbol;

/**
 * A declared route. `S` exists only for the type checker: the schemas the server validates the
 * route with (its entry in the api/ table), from which the console's `api()` takes the types of
 * what it sends and receives.
 */
export type Route<S = unknown, K extends EndpointKind = EndpointKind> = RouteDef & {
  kind: K;
  readonly [SCHEMAS]?: S;
};

/** What the console's types need of a route's schemas: the shapes, not the documentation. */
type Shapes<S> = Pick<S, Extract<keyof S, 'params' | 'query' | 'body' | 'data'>>;

type KindOf<R> = R extends { kind: infer K extends EndpointKind } ? K : 'json';

/**
 * Declares a module's routes; `S` is the type of its schema table in api/, which must name the
 * same routes: `routes<typeof projectSchemas>()({ list: { method: 'GET', … }, … })`.
 */
export function routes<S extends Record<string, unknown>>() {
  return <const R extends { [K in keyof S]: RouteDef }>(
    table: R & Record<Exclude<keyof R, keyof S>, never>,
  ): { [K in keyof R]: Route<Shapes<S[K & keyof S]>, KindOf<R[K]>> } =>
    Object.fromEntries(
      Object.entries(table as Record<string, RouteDef>).map(([name, r]) => [name, { ...r, kind: r.kind ?? 'json' }]),
    ) as never;
}
