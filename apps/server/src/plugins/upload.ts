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
