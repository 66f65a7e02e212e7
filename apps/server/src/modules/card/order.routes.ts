import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { cardOrderApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { OrderService } from './order.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as sent (the payment notification's signature covers these bytes). */
    rawBody?: string;
  }
}

export const orderRoutes: FastifyPluginAsync<{ orders: OrderService }> = async (app, { orders }) => {
  // In this plugin's scope only: keep the exact bytes of JSON bodies for signature checks.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req: FastifyRequest, body: string, done) => {
    req.rawBody = body;
    try {
      done(null, body.trim() === '' ? {} : JSON.parse(body));
    } catch (err) {
      (err as { statusCode?: number }).statusCode = 400;
      done(err as Error, undefined);
    }
  });

  route(app, api.list, async (req) => ok(await orders.list(authOf(req), req.query)));
  route(app, api.item, async (req) => ok(await orders.item(authOf(req), req.query.id)));
  route(app, api.add, async (req) => ok(await orders.create(actorOf(req), req.body), 'order created'));
  route(app, api.edit, async (req) => {
    await orders.edit(actorOf(req), req.body);
    return ok(null, 'order updated');
  });
  route(app, api.remove, async (req) => ok({ count: await orders.remove(actorOf(req), req.query.id) }, 'orders deleted'));
  route(app, api.payQr, async (req) => ok(await orders.payQr(authOf(req), req.query.id)));
  route(
    app,
    api.notify,
    async (req, reply) => {
      const res = await orders.notify(req.headers, req.rawBody ?? '');
      return reply.status(res.status).send(res.body);
    },
    // Public: anyone may post here, and every post costs a signature check and a log row. The
    // provider's notices are a couple of KB and come one per payment (retried on failure).
    { config: { rateLimit: { max: 300, timeWindow: '1 minute' } }, bodyLimit: 64 * 1024 },
  );
  route(app, api.simulatePay, async (req) => ok(await orders.simulatePay(actorOf(req), req.body)));
};
