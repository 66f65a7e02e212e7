import { SUCCESS, type Envelope, type ImportMode, type ImportReport } from '@iot/contract';
import { ApiError, ClientCode, REQUEST_TIMEOUT_MS } from '../../lib/http';
import { authHeaders, errorFrom, url } from '../../lib/download';

export { downloadFile } from '../../lib/download';

/**
 * The import upload of the device registry with real progress (fetch has no upload progress,
 * XMLHttpRequest does). Downloads are lib/download.ts.
 */

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
    xhr.open('POST', url('/device/import', { mode: options.mode, dryRun: String(options.dryRun) }));
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
