import type { FastifyPluginAsync } from 'fastify';
import { deviceApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import { readUpload, sendSheet } from '../../plugins/upload.js';
import type { DeviceSheetService } from './device.import.js';

export const deviceSheetRoutes: FastifyPluginAsync<{ sheets: DeviceSheetService }> = async (app, { sheets }) => {
  route(app, api.importTemplate, async (req, reply) => sendSheet(reply, `devices-template-${req.query.lang}.xlsx`, await sheets.template(req.query.lang)));

  route(app, api.import, async (req) => {
    const file = await readUpload(req);
    const report = await sheets.import(actorOf(req), file, req.query.mode, req.query.dryRun);
    return ok(report, report.dryRun ? 'checked' : `${report.imported} device(s) imported`);
  });

  route(app, api.export, async (req, reply) => {
    const { lang, ...q } = req.query;
    return sendSheet(reply, `devices-${new Date().toISOString().slice(0, 10)}.xlsx`, await sheets.export(authOf(req), { ...q, page: 1, limit: 1 }, lang));
  });
};
