import type { FastifyPluginAsync } from 'fastify';
import { siteApi as api } from '@iot/contract';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { SiteService } from './site.service.js';

export const siteRoutes: FastifyPluginAsync<{ site: SiteService }> = async (app, { site }) => {
  route(app, api.config, async () => ok(await site.config()));
  route(app, api.update, async (req) => {
    await site.update(req.body);
    return ok(null);
  });
};
