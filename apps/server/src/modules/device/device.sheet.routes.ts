import type { FastifyPluginAsync } from 'fastify';
import { deviceApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import { readUpload } from '../../plugins/upload.js';
import type { DeviceSheetService } from './device.import.js';

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
