import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, invalid } from '../lib/errors.js';

/** Spreadsheet transfers of the API: the upload of an import, the download of a sheet. */

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sends an .xlsx as a download named `filename`. */
export function sendSheet(reply: FastifyReply, filename: string, buf: Buffer) {
  return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${filename}"`).send(buf);
}

/**
 * The one file of a multipart upload (field `file`). Malformed multipart (no boundary, a cut-off
 * body, too many parts) answers 40000 naming `file` or `body` instead of a parser error.
 */
export async function readUpload(req: FastifyRequest): Promise<{ filename: string; data: Buffer }> {
  if (!req.isMultipart()) throw invalid('file', 'fileRequired');
  try {
    const file = await req.file();
    if (!file || file.fieldname !== 'file') throw invalid('file', 'fileRequired');
    return { filename: file.filename, data: await file.toBuffer() };
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    // Size limits keep their own message (envelope plugin).
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT') throw err;
    const tooMany = code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_PROTO_VIOLATION';
    req.log.debug({ err }, 'malformed multipart upload');
    throw invalid(tooMany ? 'body' : 'file', 'uploadMalformed');
  }
}

/**
 * The one file of a multipart upload (field `file`) as a stream, for files too large to hold
 * in memory (firmware images). `maxBytes` replaces the global limit, which is the spreadsheets':
 * past it the parser stops reading the part and `truncated()` says so. Malformed multipart is
 * refused as in `readUpload`.
 */
export async function readUploadStream(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ filename: string; stream: Readable; truncated(): boolean }> {
  if (!req.isMultipart()) throw invalid('file', 'fileRequired');
  try {
    // One byte past the limit, so that a file of exactly maxBytes is whole and a larger one
    // is known to be larger (the parser marks the part truncated only when more bytes came).
    const file = await req.file({ limits: { fileSize: maxBytes + 1 }, throwFileSizeLimit: false });
    if (!file || file.fieldname !== 'file') throw invalid('file', 'fileRequired');
    return { filename: file.filename, stream: file.file, truncated: () => file.file.truncated };
  } catch (err) {
    if (err instanceof AppError) throw err;
    req.log.debug({ err }, 'malformed multipart upload');
    const code = (err as { code?: string }).code;
    const tooMany = code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_PROTO_VIOLATION';
    throw invalid(tooMany ? 'body' : 'file', 'uploadMalformed');
  }
}
