import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { deviceApi as api } from '@iot/contract';
import { AppError, invalid } from '../../lib/errors.js';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { DeviceSheetService } from './device.import.js';

/**
 * The one file of a multipart upload (field `file`). Malformed multipart (no boundary, a cut-off
 * body, too many parts) answers 40000 naming `file` or `body` instead of a parser error.
 */
async function readUpload(req: FastifyRequest): Promise<{ filename: string; data: Buffer }> {
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

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const deviceSheetRoutes: FastifyPluginAsync<{ sheets: DeviceSheetService }> = async (app, { sheets }) => {
  route(app, api.importTemplate, async (req, reply) =>
    reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="devices-template-${req.query.lang}.xlsx"`)
      .send(sheets.template(req.query.lang)),
  );

  route(app, api.import, async (req) => {
    const file = await readUpload(req);
    const report = await sheets.import(actorOf(req), file, req.query.mode, req.query.dryRun);
    return ok(report, report.dryRun ? 'checked' : `${report.imported} device(s) imported`);
  });

  route(app, api.export, async (req, reply) => {
    const { lang, ...q } = req.query;
    const buf = await sheets.export(authOf(req), { ...q, page: 1, limit: 1 }, lang);
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="devices-${new Date().toISOString().slice(0, 10)}.xlsx"`)
      .send(buf);
  });
};
