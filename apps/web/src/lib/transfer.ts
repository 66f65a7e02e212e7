import { SUCCESS, deviceRoutes } from '@iot/contract/plain';
import type { EndpointData, EndpointQuery, Envelope, ImportMode } from '@iot/contract';
import { ApiError, ClientCode, REQUEST_TIMEOUT_MS } from './http';
import { authHeaders, endpointUrl as url, errorFrom, type EndpointOf } from './download';

/**
 * The device import's upload with real progress (fetch has no upload progress, XMLHttpRequest
 * does). Spreadsheet downloads are the shared typed downloadFile of lib/download.ts.
 */
export { downloadFile } from './download';

type ImportReport = EndpointData<typeof deviceRoutes.import>;
/** An import endpoint: multipart upload with mode and dry run, answering an import report. */
type ImportEndpoint = Omit<typeof deviceRoutes.import, 'permission' | 'audit'>;

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
  options: { mode: ImportMode; dryRun: boolean; onProgress: (percent: number) => void; endpoint?: ImportEndpoint },
): UploadHandle {
  const ep = (options.endpoint ?? deviceRoutes.import) as typeof deviceRoutes.import;
  const xhr = new XMLHttpRequest();
  const promise = new Promise<ImportReport>((resolve, reject) => {
    const query: EndpointQuery<typeof deviceRoutes.import> = { mode: options.mode, dryRun: options.dryRun ? 'true' : 'false' };
    xhr.open(ep.method, url(ep, query));
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

/**
 * One file to an upload endpoint (multipart field `file`) with progress in percent, e.g. a
 * firmware image: no time limit (a large image on a slow link takes what it takes; `abort`
 * stops it). Rejects with an ApiError the caller reports.
 */
export function uploadFile<R extends EndpointOf<'upload'>>(ep: R, file: File, onProgress: (percent: number) => void) {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<EndpointData<R>>((resolve, reject) => {
    xhr.open(ep.method, url(ep));
    for (const [k, v] of Object.entries({ ...authHeaders(), Accept: 'application/json' })) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      const text = xhr.responseText ?? '';
      try {
        const body = JSON.parse(text) as Envelope<EndpointData<R>>;
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
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
