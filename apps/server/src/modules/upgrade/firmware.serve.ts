import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** An uploaded firmware image as the download routes serve it. */
export interface FirmwareFile {
  /** Absolute path on disk. */
  abs: string;
  size: number;
  sha256: string;
  /** The name it was uploaded with (the download's file name). */
  fileName: string;
}

/** Where uploaded images live: DATA_DIR/firmware, one file per version. */
export const firmwareDir = (dataDir: string) => path.join(dataDir, 'firmware');

/**
 * A `Range` header against a file of `size` bytes: the one range asked for (`bytes=a-b`,
 * `bytes=a-`, `bytes=-n`), 'all' without a header (or a header of another unit, which HTTP says
 * to ignore), 'unsatisfiable' for a range outside the file or a malformed one. Several ranges
 * (`bytes=0-1,5-6`) are served as the whole file: devices resume with one.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'all' | 'unsatisfiable' {
  if (!header) return 'all';
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return header.trim().startsWith('bytes=') && header.includes(',') ? 'all' : header.trim().startsWith('bytes=') ? 'unsatisfiable' : 'all';
  const [, a, b] = m as unknown as [string, string, string];
  if (a === '' && b === '') return 'unsatisfiable';
  if (a === '') {
    const n = Number(b);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a firmware image: the whole file (200) or the one range asked for (206, resumable on bad
 * links), 416 with `Content-Range: bytes * /size` for a range outside it. The checksum travels as
 * the ETag and `X-Checksum-SHA256` so a device can check what it assembled.
 */
export function serveFirmware(req: FastifyRequest, reply: FastifyReply, file: FirmwareFile) {
  const range = parseRange(req.headers.range, file.size);
  reply
    .header('accept-ranges', 'bytes')
    .header('etag', `"${file.sha256}"`)
    .header('x-checksum-sha256', file.sha256)
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '_')}"`)
    .header('cache-control', 'private, no-transform');
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${file.size}`).send();
  }
  // If-Range with another entity tag: the file changed since the first part; send it whole.
  const ifRange = req.headers['if-range'];
  const whole = range === 'all' || (ifRange !== undefined && ifRange !== `"${file.sha256}"`);
  if (whole) {
    reply.header('content-length', String(file.size));
    return reply.code(200).send(fs.createReadStream(file.abs));
  }
  const { start, end } = range;
  reply.header('content-range', `bytes ${start}-${end}/${file.size}`).header('content-length', String(end - start + 1));
  return reply.code(206).send(fs.createReadStream(file.abs, { start, end }));
}
