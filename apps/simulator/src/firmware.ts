import crypto from 'node:crypto';

/** Attempts of one download: the first, then resumptions from where it stopped (`Range`). */
const ATTEMPTS = 4;

export type DownloadResult = 'done' | { error: string };

/**
 * Fetches a firmware image as a device would: in parts, resuming with `Range: bytes=<have>-`
 * after a cut (the console's download route answers 206); checks the size and SHA-256 the upgrade
 * command named. `auth`: the device's credentials (the console's own route asks for them).
 * `onProgress`: percent received, when the size is known. The image is not kept.
 */
export async function fetchFirmware(
  url: string,
  expected: { size?: number; sha256?: string },
  opts: { auth?: string; onProgress?: (percent: number) => void; fetchImpl?: typeof fetch } = {},
): Promise<DownloadResult> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  let hash = crypto.createHash('sha256');
  let have = 0;
  let total = expected.size;
  let lastError = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      const headers: Record<string, string> = {};
      if (opts.auth) headers.authorization = opts.auth;
      if (have > 0) headers.range = `bytes=${have}-`;
      const res = await fetchImpl(url, { headers });
      if (res.status === 200 && have > 0) {
        // The server sent the whole image again: start over.
        hash = crypto.createHash('sha256');
        have = 0;
      } else if (res.status !== 200 && res.status !== 206) {
        return { error: `download failed: ${res.status}` };
      }
      const length = Number(res.headers.get('content-length') ?? NaN);
      if (total === undefined && Number.isFinite(length)) total = have + length;
      if (!res.body) return { error: 'download failed: empty answer' };
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        hash.update(value);
        have += value.length;
        if (total) opts.onProgress?.(Math.min(100, (have / total) * 100));
      }
      if (total !== undefined && have < total) {
        lastError = `download cut at ${have} of ${total} bytes`;
        continue;
      }
      if (expected.size !== undefined && have !== expected.size) return { error: `size mismatch: ${have} bytes, expected ${expected.size}` };
      const digest = hash.digest('hex');
      if (expected.sha256 && digest !== expected.sha256.toLowerCase()) return { error: 'sha256 mismatch' };
      return 'done';
    } catch (err) {
      // A cut connection: resume from what arrived.
      lastError = (err as Error).message;
    }
  }
  return { error: `download failed: ${lastError}` };
}
