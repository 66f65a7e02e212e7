import {
  SUCCESS,
  deviceApi,
  type AnyEndpoint,
  type EndpointData,
  type EndpointKind,
  type EndpointQuery,
  type Envelope,
  type ImportMode,
} from '@iot/contract';
import { pathOf } from './api';
import { getToken } from './cookies';
import { API_BASE, ApiError, ClientCode, REQUEST_TIMEOUT_MS, reportError, type QueryValue } from './http';
import { currentLanguage } from './i18n';

/**
 * File transfers of the device registry that the JSON envelope client cannot do: spreadsheet
 * downloads (a blob, or an envelope when refused) and the import upload with real progress
 * (fetch has no upload progress, XMLHttpRequest does).
 */

/** The address of a declared endpoint (packages/contract/src/api) with its query string. */
function url(ep: AnyEndpoint, query: object = {}): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query as Record<string, QueryValue>)) {
    if (v !== undefined && v !== null && v !== '') search.append(k, String(v));
  }
  const qs = search.toString();
  return `${API_BASE}${pathOf(ep)}${qs ? `?${qs}` : ''}`;
}

type Of<K extends EndpointKind> = AnyEndpoint & { kind: K };

function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** Reads an error envelope out of a refused request's body, or a network-class error. */
function errorFrom(text: string): ApiError {
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
export async function downloadFile<E extends Of<'file'>>(ep: E, query: EndpointQuery<E>, fallbackName: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url(ep, query ?? {}), { headers: authHeaders(), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
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

type ImportReport = EndpointData<typeof deviceApi.import>;

export interface UploadHandle {
  promise: Promise<ImportReport>;
  abort: () => void;
}

/**
 * POST /device/import as multipart (field `file`) with upload progress in percent. Rejects with
 * an ApiError the caller reports (the dialog shows file-level problems itself).
 */
export function uploadImport(
  file: File,
  options: { mode: ImportMode; dryRun: boolean; onProgress: (percent: number) => void },
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<ImportReport>((resolve, reject) => {
    const query: EndpointQuery<typeof deviceApi.import> = { mode: options.mode, dryRun: options.dryRun ? 'true' : 'false' };
    xhr.open(deviceApi.import.method, url(deviceApi.import, query));
    xhr.timeout = REQUEST_TIMEOUT_MS;
    for (const [k, v] of Object.entries({ ...authHeaders(), Accept: 'application/json' })) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) options.onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      const text = xhr.responseText ?? '';
      try {
        const body = JSON.parse(text) as Envelope<ImportReport>;
        if (body?.code === SUCCESS && body.data) {
          resolve(body.data);
          return;
        }
      } catch {
        // handled below
      }
      reject(errorFrom(text));
    };
    xhr.onerror = () => reject(new ApiError(ClientCode.NETWORK, 'network'));
    xhr.ontimeout = () => reject(new ApiError(ClientCode.NETWORK, 'timeout'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
