import type { FastifyPluginAsync } from 'fastify';
import { homeApi as api } from '@iot/contract';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { HomeBatteryService } from './battery.service.js';

/** GET /home/battery: the dashboard's battery style (battery.service.ts). */
export const homeBatteryRoutes: FastifyPluginAsync<{ battery: HomeBatteryService }> = async (app, { battery }) => {
  route(app, api.battery, async (req) => ok(await battery.battery(authOf(req), req.query)));
};
