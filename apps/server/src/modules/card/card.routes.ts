import type { FastifyPluginAsync } from 'fastify';
import { cardApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import { readUpload, sendSheet } from '../../plugins/upload.js';
import type { CardSheetService } from './card.import.js';
import type { CardService } from './card.service.js';

export const cardRoutes: FastifyPluginAsync<{ cards: CardService; sheets: CardSheetService }> = async (app, { cards, sheets }) => {
  route(app, api.list, async (req) => ok(await cards.list(authOf(req), req.query)));
  route(app, api.expiring, async (req) => ok(await cards.expiring(authOf(req), req.query)));
  route(app, api.item, async (req) => ok(await cards.item(authOf(req), req.query.id)));
  route(app, api.add, async (req) => ok(await cards.create(actorOf(req), req.body), 'card created'));
  route(app, api.edit, async (req) => {
    await cards.edit(actorOf(req), req.body);
    return ok(null, 'card updated');
  });
  route(app, api.remove, async (req) => ok({ count: await cards.remove(actorOf(req), req.query.id) }, 'cards deleted'));
  route(app, api.basicInfo, async (req) => ok(await cards.basicInfo(authOf(req), req.query.id, req.query.refresh)));
  route(app, api.voiceMargin, async (req) => ok(await cards.voiceMargin(authOf(req), req.query.id, req.query.refresh)));
  route(app, api.whitelist, async (req) => ok(await cards.whitelist(authOf(req), req.query.id, req.query.refresh)));
  route(app, api.configWhitelist, async (req) => ok(await cards.configWhitelist(actorOf(req), req.body), 'whitelist changed'));
  route(app, api.importTemplate, async (req, reply) => sendSheet(reply, `sim-cards-template-${req.query.lang}.xlsx`, await sheets.template(req.query.lang)));
  route(app, api.import, async (req) => {
    const report = await sheets.import(actorOf(req), await readUpload(req), req.query.mode, req.query.dryRun);
    return ok(report, report.dryRun ? 'checked' : `${report.imported} card(s) imported`);
  });
  route(app, api.export, async (req, reply) => {
    const { lang, ...q } = req.query;
    return sendSheet(reply, `sim-cards-${new Date().toISOString().slice(0, 10)}.xlsx`, await sheets.export(authOf(req), q, lang));
  });
};
