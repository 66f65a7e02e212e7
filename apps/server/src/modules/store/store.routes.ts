import type { FastifyPluginAsync } from 'fastify';
import { storeApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import { readUpload, sendSheet } from '../../plugins/upload.js';
import type { StoreSheetService } from './store.sheet.js';
import type { StoreService } from './store.service.js';

/** Stores and their stock (packages/contract/src/routes/stores.ts, schemas in api/stores.ts). */
export const storeRoutes: FastifyPluginAsync<{ stores: StoreService; sheets: StoreSheetService }> = async (app, { stores, sheets }) => {
  route(app, api.list, async (req) => ok(await stores.list(authOf(req), req.query)));
  route(app, api.item, async (req) => ok(await stores.item(authOf(req), req.query.id)));
  route(app, api.add, async (req) => ok(await stores.create(actorOf(req), req.body), 'store created'));
  route(app, api.edit, async (req) => {
    await stores.edit(actorOf(req), req.body);
    return ok(null, 'store updated');
  });
  route(app, api.remove, async (req) => ok({ count: await stores.remove(actorOf(req), req.query.id) }, 'stores deleted'));
  route(app, api.stock, async (req) => ok(await stores.stock(authOf(req), req.query)));
  route(app, api.stockDevices, async (req) => ok({ count: await stores.stockDevices(actorOf(req), req.body.storeId, req.body.deviceIds) }, 'packs stocked'));
  route(app, api.unstockDevices, async (req) => ok({ count: await stores.unstockDevices(actorOf(req), req.body.deviceIds) }, 'packs taken out'));
  route(app, api.importTemplate, async (req, reply) => sendSheet(reply, `stores-template-${req.query.lang}.xlsx`, await sheets.template(req.query.lang)));
  route(app, api.import, async (req) => {
    const report = await sheets.import(actorOf(req), await readUpload(req), req.query.mode, req.query.dryRun);
    return ok(report, report.dryRun ? 'checked' : `${report.imported} store(s) imported`);
  });
  route(app, api.export, async (req, reply) => {
    const { lang, ...q } = req.query;
    return sendSheet(reply, `stores-${new Date().toISOString().slice(0, 10)}.xlsx`, await sheets.export(authOf(req), q, lang));
  });
  route(app, api.clearFault, async (req) => ok({ count: await stores.clearFault(actorOf(req), req.body.deviceIds) }, 'faults cleared'));
};
