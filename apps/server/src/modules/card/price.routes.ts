import type { FastifyPluginAsync } from 'fastify';
import { cardPriceApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { PriceService } from './price.service.js';

export const priceRoutes: FastifyPluginAsync<{ prices: PriceService }> = async (app, { prices }) => {
  route(app, api.list, async (req) => ok(await prices.list(req.query)));
  route(app, api.options, async () => ok(await prices.options()));
  route(app, api.add, async (req) => ok({ id: await prices.create(actorOf(req), req.body) }, 'price added'));
  route(app, api.edit, async (req) => {
    await prices.edit(actorOf(req), req.body);
    return ok(null, 'price updated');
  });
  route(app, api.remove, async (req) => ok({ count: await prices.remove(actorOf(req), req.query.id) }, 'prices deleted'));
};
