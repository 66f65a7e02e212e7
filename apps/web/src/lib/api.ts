import type { AnyRoute, EndpointBody, EndpointData, EndpointParams, EndpointQuery, Envelope } from '@iot/contract';
import { requestEnvelope, type QueryValue } from './http';

type QueryPart<E extends AnyRoute> =
  EndpointQuery<E> extends undefined
    ? { query?: undefined }
    : object extends EndpointQuery<E>
      ? { query?: EndpointQuery<E> }
      : { query: EndpointQuery<E> };

type BodyPart<E extends AnyRoute> =
  EndpointBody<E> extends undefined ? { body?: undefined } : { body: EndpointBody<E> };

type ParamsPart<E extends AnyRoute> =
  EndpointParams<E> extends undefined ? { params?: undefined } : { params: EndpointParams<E> };

/** What a call of endpoint `E` takes: its path parameters, query and body as the contract declares them. */
export type CallInput<E extends AnyRoute> = ParamsPart<E> &
  QueryPart<E> &
  BodyPart<E> & {
    signal?: AbortSignal;
    /** Skip the global error feedback: the caller reports the failure itself. */
    silent?: boolean;
  };

/** The endpoint's path with its `:name` segments filled from `params`. */
export function pathOf(ep: AnyRoute, params?: Record<string, QueryValue>): string {
  return ep.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? '')));
}

/** An endpoint that answers the JSON envelope (files and the import upload: lib/transfer.ts). */
type JsonRoute = AnyRoute & { kind: 'json' };

/** Calls endpoint `E`; resolves with the whole success envelope (when its message is shown). */
export function apiEnvelope<E extends JsonRoute>(
  ep: E,
  ...[input]: object extends CallInput<E> ? [CallInput<E>?] : [CallInput<E>]
): Promise<Envelope<EndpointData<E>>> {
  const { params, query, body, signal, silent } = (input ?? {}) as CallInput<AnyRoute> & {
    params?: Record<string, QueryValue>;
    query?: Record<string, QueryValue>;
    body?: unknown;
  };
  return requestEnvelope<EndpointData<E>>(pathOf(ep, params), {
    method: ep.method,
    params: query as Record<string, QueryValue> | undefined,
    body: body === undefined && (ep.method === 'POST' || ep.method === 'PUT') ? {} : body,
    signal,
    silent,
  });
}

/**
 * The console's one way to call the API: the endpoint's route (`@iot/contract/plain`,
 * packages/contract/src/routes) gives the path and the method, its schemas' types what is sent
 * and received, so no request or response type is written by hand and no schema is loaded. Resolves with `data` on code
 * 20000, rejects with an ApiError otherwise.
 */
export async function api<E extends JsonRoute>(
  ep: E,
  ...input: object extends CallInput<E> ? [CallInput<E>?] : [CallInput<E>]
): Promise<EndpointData<E>> {
  return (await apiEnvelope(ep, ...input)).data;
}
