import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMPORT_MODES, deviceListQuerySchema, envelope, importReportSchema, templateQuerySchema } from '@iot/contract';
import { invalid } from '../../lib/errors.js';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { DeviceSheetService } from './device.import.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const deviceSheetRoutes: FastifyPluginAsyncZod<{ sheets: DeviceSheetService }> = async (app, { sheets }) => {
  const tags = ['devices'];
  app.get(
    '/device/importtemplate',
    { config: { permission: 'device:import' }, schema: { tags, summary: 'Import template (.xlsx) with headers in a language', querystring: templateQuerySchema } },
    async (req, reply) =>
      reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="devices-template-${req.query.lang}.xlsx"`)
        .send(sheets.template(req.query.lang)),
  );

  app.post(
    '/device/import',
    {
      config: { permission: 'device:import', audit: 'device.import' },
      schema: {
        tags,
        summary: 'Import devices from an .xlsx/.xls file (multipart field `file`)',
        description: 'mode=all writes nothing when any row is wrong; mode=valid writes the valid rows; dryRun=true only reports.',
        querystring: z.object({
          mode: z.enum(IMPORT_MODES).default('all'),
          dryRun: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
        }),
        response: { 200: envelope(importReportSchema) },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw invalid('file', 'fileRequired');
      const file = await req.file();
      if (!file) throw invalid('file', 'fileRequired');
      const data = await file.toBuffer();
      const report = await sheets.import(actorOf(req), { filename: file.filename, data }, req.query.mode, req.query.dryRun);
      return ok(report, report.dryRun ? 'checked' : `${report.imported} device(s) imported`);
    },
  );

  app.get(
    '/device/export',
    {
      config: { permission: 'device:list' },
      schema: {
        tags,
        summary: 'Devices matching the list filters as .xlsx',
        querystring: deviceListQuerySchema.omit({ page: true, limit: true }).extend({ lang: templateQuerySchema.shape.lang }),
      },
    },
    async (req, reply) => {
      const { lang, ...q } = req.query;
      const buf = await sheets.export(authOf(req), { ...q, page: 1, limit: 1 }, lang);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="devices-${new Date().toISOString().slice(0, 10)}.xlsx"`)
        .send(buf);
    },
  );
};
