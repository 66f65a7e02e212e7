import type { FastifyPluginAsync } from 'fastify';
import { rentalApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import { readUpload, sendSheet } from '../../plugins/upload.js';
import type { RentalService } from './rental.service.js';
import type { StoreSheetService } from './store.sheet.js';

/** Rentals and sales (packages/contract/src/routes/stores.ts, schemas in api/stores.ts). */
export const rentalRoutes: FastifyPluginAsync<{ rentals: RentalService; sheets: StoreSheetService }> = async (app, { rentals, sheets }) => {
  route(app, api.list, async (req) => ok(await rentals.list(authOf(req), req.query)));
  route(app, api.item, async (req) => ok(await rentals.item(authOf(req), req.query.id)));
  route(app, api.add, async (req) => ok(await rentals.create(actorOf(req), req.body), 'rental created'));
  for (const action of ['activate', 'cancel', 'lose'] as const) {
    route(app, api[action], async (req) => {
      await rentals.apply(actorOf(req), req.body.id, action);
      return ok(null, 'rental updated');
    });
  }
  route(app, api.returnCheck, async (req) => ok(await rentals.returnCheck(authOf(req), req.query.id)));
  route(app, api.export, async (req, reply) => {
    const { lang, ...q } = req.query;
    return sendSheet(reply, `rentals-${new Date().toISOString().slice(0, 10)}.xlsx`, await sheets.exportRentals(authOf(req), q, lang));
  });
  route(app, api.importTemplate, async (req, reply) => sendSheet(reply, `rentals-template-${req.query.lang}.xlsx`, await sheets.rentalTemplate(req.query.lang)));
  route(app, api.import, async (req) => {
    const report = await sheets.importRentals(actorOf(req), await readUpload(req), req.query.mode, req.query.dryRun);
    return ok(report, report.dryRun ? 'checked' : `${report.imported} rental(s) imported`);
  });
  route(app, api.dischargeOff, async (req) => ok(await rentals.dischargeOff(actorOf(req), req.body.id), 'command sent'));
  route(app, api.summary, async (req) => ok(await rentals.summary(authOf(req), req.query)));
  route(app, api.giveBack, async (req) => ok(await rentals.giveBack(actorOf(req), req.body.id, req.body.remark), 'pack returned'));
};
