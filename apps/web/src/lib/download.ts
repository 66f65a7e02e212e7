import { SUCCESS } from '@iot/contract/plain';
import type { AnyRoute, EndpointKind, EndpointQuery, Envelope } from '@iot/contract';
import { pathOf } from './api';
import { getToken } from './cookies';
import { API_BASE, ApiError, ClientCode, REQUEST_TIMEOUT_MS, reportError, type QueryValue } from './http';
import { currentLanguage } from './i18n';

/**
 * File transfers the JSON envelope client cannot do, shared by every screen: the address of a
 * declared endpoint, the session's headers, the error envelope of a refused transfer, and the
 * typed download of a `file` endpoint (device sheets, the alarm export). The device import's
 * upload with progress builds on these in features/devices/transfer.ts.
 */

/** The address of a declared route (packages/contract/src/routes) with its query string. */
export function endpointUrl(ep: AnyRoute, query: object = {}): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query as Record<string, QueryValue>)) {
    if (v !== undefined && v !== null && v !== '') search.append(k, String(v));
  }
  const qs = search.toString();
  return `${API_BASE}${pathOf(ep)}${qs ? `?${qs}` : ''}`;
}

export type EndpointOf<K extends EndpointKind> = AnyRoute & { kind: K };

export function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** Reads an error envelope out of a refused request's body, or a network-class error. */
export function errorFrom(text: string): ApiError {
  try {
    const body = JSON.parse(text) as Envelope<unknown>;
    if (typeof body?.code === 'number' && body.code !== SUCCESS) {
      return new ApiError(body.code, body.message ?? '', body.data ?? null);
    }
  } catch {
    // not an envelope
  }
  return text.trim() ? new ApiError(ClientCode.NETWORK, 'invalid response') : new ApiError(ClientCode.EMPTY_BODY, '');
}

function fileNameOf(res: Response, fallback: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
}

function save(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * GETs the file of a `file` endpoint with the session's Authorization header and saves it. A
 * refusal (an envelope instead of a file) is reported like any other failed call and rejects.
 */
export async function downloadFile<E extends EndpointOf<'file'>>(ep: E, query: EndpointQuery<E>, fallbackName: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(endpointUrl(ep, query ?? {}), { headers: authHeaders(), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (cause) {
    const err = new ApiError(ClientCode.NETWORK, cause instanceof Error ? cause.message : 'network');
    reportError(err);
    throw err;
  }
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const err = errorFrom(await res.text());
    reportError(err);
    throw err;
  }
  save(await res.blob(), fileNameOf(res, fallbackName));
}
