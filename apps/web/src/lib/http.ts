import { SESSION_CODES, SUCCESS } from '@iot/contract/plain';
import type { Envelope } from '@iot/contract';
import i18n, { currentLanguage } from './i18n';
import { getToken } from './cookies';
import { feedbackMessage } from './feedback';
import { showLogoutConfirm } from './logout-confirm';

export const API_BASE = '/api/v1';
/** §7/§9: a request may take up to ten minutes (large uploads, exports). */
export const REQUEST_TIMEOUT_MS = 600_000;

/** Codes the client itself produces when there is no server answer to read. */
export const ClientCode = {
  NETWORK: -1,
  EMPTY_BODY: -2,
} as const;

/** The one error type callers see: the envelope's code, message and data. */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;
  /** Already shown to the user (a call that was not `silent`). */
  reported = false;
  constructor(code: number, message: string, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  /** Skip the global error feedback: the caller reports the failure itself. */
  silent?: boolean;
}

/** The server's own message for these codes is more precise than a generic text for the code. */
const PREFER_SERVER_MESSAGE: readonly number[] = [40400, 40900];
/** §8: a message the original console deliberately never showed. */
const SUPPRESSED_MESSAGES = ['no card order data'];

function fieldOf(data: unknown): string | undefined {
  const field = (data as { field?: unknown } | null)?.field;
  return typeof field === 'string' ? field : undefined;
}

function retryAfterOf(data: unknown): number | undefined {
  const value = (data as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof value === 'number' ? value : undefined;
}

/** The refusal reason (contract `refusals.ts`) and its params, when the server gave one. */
export function refusalOf(data: unknown): { reason: string; params: Record<string, string | number> } | undefined {
  const { reason, params } = (data ?? {}) as { reason?: unknown; params?: unknown };
  if (typeof reason !== 'string') return undefined;
  return { reason, params: params && typeof params === 'object' ? (params as Record<string, string | number>) : {} };
}

/** A refusal reason (contract refusals.ts) in the UI language; undefined for a reason unknown here. */
export function refusalText(refusal: { reason: string; params?: Record<string, string | number> }): string | undefined {
  const key = `refusals:${refusal.reason}`;
  return i18n.exists(key) ? i18n.t(key, refusal.params ?? {}) : undefined;
}

/**
 * The localized text for an error: the refusal reason in the UI language, else the per-code text
 * with the field name, else the server's message.
 */
export function describeError(err: ApiError): string {
  if (err.code === ClientCode.NETWORK) return i18n.t('errors:network');
  if (err.code === ClientCode.EMPTY_BODY) return i18n.t('errors:emptyData');
  const refusal = refusalOf(err.data);
  const refused = refusal && refusalText(refusal);
  if (refused) return refused;
  const field = fieldOf(err.data);
  const key = `errors:${err.code}`;
  const preferServer =
    PREFER_SERVER_MESSAGE.includes(err.code) || (err.code === 40000 && !field);
  if (i18n.exists(key) && !(preferServer && err.message)) {
    const retryAfter = retryAfterOf(err.data) ?? 0;
    return i18n.t(key, {
      field: field ? i18n.t(`fields:${field}`, { defaultValue: field }) : '',
      minutes: Math.max(1, Math.ceil(retryAfter / 60)),
      seconds: Math.max(1, Math.ceil(retryAfter)),
    });
  }
  return err.message || i18n.t('errors:generic');
}

/** §8 feedback for a failed call: logout box, delayed error message or network message. */
export function reportError(err: ApiError): void {
  err.reported = true;
  if (SESSION_CODES.includes(err.code)) {
    showLogoutConfirm();
    return;
  }
  if (err.code === ClientCode.NETWORK) {
    feedbackMessage().error({ content: describeError(err), duration: 5 });
    return;
  }
  if (SUPPRESSED_MESSAGES.includes(err.message)) return;
  const content = describeError(err);
  setTimeout(() => feedbackMessage().error({ content, duration: 3 }), 1000);
}

function buildUrl(path: string, params?: Record<string, QueryValue>): string {
  const url = API_BASE + (path.startsWith('/') ? path : `/${path}`);
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') search.append(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${url}?${qs}` : url;
}

async function send(path: string, options: RequestOptions): Promise<Envelope<unknown>> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': currentLanguage(),
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const hasBody = options.body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';

  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let text: string;
  try {
    const res = await fetch(buildUrl(path, options.params), {
      method: options.method ?? 'GET',
      headers,
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal,
    });
    text = await res.text();
  } catch (cause) {
    // A caller's own abort is not a network failure: pass it through untouched.
    if (options.signal?.aborted) throw cause;
    throw new ApiError(ClientCode.NETWORK, cause instanceof Error ? cause.message : 'network');
  }
  if (!text.trim()) throw new ApiError(ClientCode.EMPTY_BODY, '');

  let body: Envelope<unknown>;
  try {
    body = JSON.parse(text) as Envelope<unknown>;
  } catch {
    // A proxy's HTML error page or a cut connection: there is no envelope to read.
    throw new ApiError(ClientCode.NETWORK, 'invalid response');
  }
  if (typeof body !== 'object' || body === null || typeof body.code !== 'number') {
    throw new ApiError(ClientCode.EMPTY_BODY, '');
  }
  if (body.code !== SUCCESS) throw new ApiError(body.code, body.message ?? '', body.data ?? null);
  return body;
}

/**
 * Sends one request and resolves with the whole success envelope; reports failures unless
 * `silent`. Only `api()` (lib/api.ts) calls it: every call names a declared endpoint, never a
 * path string.
 */
export async function requestEnvelope<T>(
  path: string,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  try {
    return (await send(path, options)) as Envelope<T>;
  } catch (err) {
    if (err instanceof ApiError && !options.silent) reportError(err);
    throw err;
  }
}
