import type { FastifyPluginAsync } from 'fastify';
import { campaignApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { CampaignService } from './campaign.service.js';

/** §7 device upgrades (packages/contract/src/routes/campaigns.ts, schemas in api/campaigns.ts). */
export const campaignRoutes: FastifyPluginAsync<{ campaigns: CampaignService }> = async (app, { campaigns }) => {
  route(app, api.list, async (req) => ok(await campaigns.list(authOf(req), req.query)));
  route(app, api.devices, async (req) => ok(await campaigns.devices(authOf(req), req.query)));
  route(app, api.logs, async (req) => ok(await campaigns.logs(authOf(req), req.query)));
  route(app, api.start, async (req) => {
    const plan = await campaigns.start(actorOf(req), req.body, `${req.protocol}://${req.host}`);
    return ok(plan, plan.campaignId ? 'upgrade started' : 'success');
  });
  route(app, api.close, async (req) => ok(await campaigns.close(actorOf(req), req.body), 'upgrade cancelled'));
};
