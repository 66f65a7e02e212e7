import { SUCCESS, type Envelope } from '@iot/contract';
import { getToken } from './cookies';
import { API_BASE, ApiError, ClientCode, REQUEST_TIMEOUT_MS, reportError, type QueryValue } from './http';
import { currentLanguage } from './i18n';

/**
 * GETs a file (an .xlsx export) with the session's Authorization header and saves it. A refusal
 * (an envelope instead of a file) is reported like any other failed call and rejects.
 */
export async function downloadFile(path: string, params: Record<string, QueryValue>, fallbackName: string): Promise<void> {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') search.append(k, String(v));
  }
  const qs = search.toString();
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}${qs ? `?${qs}` : ''}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (cause) {
    const err = new ApiError(ClientCode.NETWORK, cause instanceof Error ? cause.message : 'network');
    reportError(err);
    throw err;
  }
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const text = await res.text();
    let err = new ApiError(ClientCode.NETWORK, 'invalid response');
    try {
      const body = JSON.parse(text) as Envelope<unknown>;
      if (typeof body?.code === 'number' && body.code !== SUCCESS) err = new ApiError(body.code, body.message ?? '', body.data ?? null);
    } catch {
      // not an envelope
    }
    reportError(err);
    throw err;
  }
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '');
  const name = match?.[1] ? decodeURIComponent(match[1]) : fallbackName;
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
