import type { z } from 'zod';
import type { EndpointKind, Route, RouteDef, SCHEMAS } from './route.js';

/**
 * One declaration per API route, shared by the server and the console (docs/ARCHITECTURE.md,
 * "One endpoint table"), in two halves: the route (routes/: method, path, permission, audit
 * action, kind; plain values, what the console loads) and its schemas (api/: the zod schemas
 * that validate the query and body and document the answer; only the server loads them). The
 * server registers the route from the whole endpoint (`route()` in
 * apps/server/src/plugins/endpoint.ts). The console calls the route through `api()`
 * (apps/web/src/lib/api.ts), so what it sends is `EndpointQuery`/`EndpointBody` and what it gets
 * is `EndpointData`, never a hand-written twin. `npm run check` fails when a declared endpoint is
 * not registered or a route under /api/v1 is not declared.
 */
export interface EndpointSchemas {
  /** OpenAPI grouping. */
  tags: readonly string[];
  summary?: string;
  description?: string;
  /** The `:name` segments of the path. */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The envelope's `data` (for `file` endpoints: what an error envelope would carry, `null`;
   * for `raw` endpoints: the whole answer).
   */
  data: z.ZodType;
  /** `raw` endpoints only: answers with another status than 200 (e.g. a hook's 403 refusal). */
  otherAnswers?: Readonly<Record<number, z.ZodType>>;
}

/** A module's schema table in api/: the schemas of each of its routes, by the route's name. */
export type EndpointSchemaTable = Record<string, EndpointSchemas>;

/**
 * Joins a module's routes (routes/) with their schemas (api/) into the endpoints the server
 * registers. Both tables name the same routes; a name in only one of them throws.
 */
export function endpoints<R extends Record<string, Route>, S extends { [K in keyof R]: EndpointSchemas }>(
  routeTable: R,
  schemaTable: S & Record<Exclude<keyof S, keyof R>, never>,
): { [K in keyof R]: R[K] & S[K] } {
  const names = new Set([...Object.keys(routeTable), ...Object.keys(schemaTable)]);
  for (const name of names) {
    if (!(name in routeTable) || !(name in schemaTable)) {
      throw new Error(`Endpoint ${name}: declared in only one of routes/ and api/`);
    }
  }
  return Object.fromEntries(
    Object.keys(routeTable).map((name) => [name, { ...routeTable[name], ...(schemaTable as Record<string, EndpointSchemas>)[name] }]),
  ) as never;
}

/** One endpoint declared whole, route and schemas in one object (tests' ad-hoc routes). */
export function endpoint<const D extends RouteDef & EndpointSchemas>(
  def: D,
): D & Route<D, D['kind'] extends EndpointKind ? D['kind'] : 'json'> {
  return { ...def, kind: def.kind ?? 'json' } as never;
}

/** Any whole endpoint (the server's `route()` and parity check). */
type AnyEndpoint = RouteDef & { kind: EndpointKind } & EndpointSchemas;
/** Any route, the console's handle on an endpoint (its schemas are types only). */
type AnyRoute = Route;

type SchemasOf<E> = E extends { readonly [SCHEMAS]?: infer S } ? NonNullable<S> : never;
type Part<E, Name extends string> = SchemasOf<E> extends { [N in Name]: infer T } ? (T extends z.ZodType ? T : undefined) : undefined;

type SchemaInput<S> = S extends z.ZodType ? z.input<S> : undefined;
type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What the console sends as the query string (defaults may be left out). */
export type EndpointQuery<E extends AnyRoute> = SchemaInput<Part<E, 'query'>>;
/** What the console sends as the JSON body. */
export type EndpointBody<E extends AnyRoute> = SchemaInput<Part<E, 'body'>>;
/** What the caller fills into the path's `:name` segments. */
export type EndpointParams<E extends AnyRoute> = SchemaInput<Part<E, 'params'>>;
/** The path parameters as the server's handler receives them. */
export type EndpointParsedParams<E extends AnyRoute> = SchemaOutput<Part<E, 'params'>>;
/** The query as the server's handler receives it (validated, coerced, defaults applied). */
export type EndpointParsedQuery<E extends AnyRoute> = SchemaOutput<Part<E, 'query'>>;
/** The body as the server's handler receives it. */
export type EndpointParsedBody<E extends AnyRoute> = SchemaOutput<Part<E, 'body'>>;
/** The envelope's `data` of a success. */
export type EndpointData<E extends AnyRoute> = SchemaOutput<Part<E, 'data'>>;

export type { AnyEndpoint, AnyRoute };
