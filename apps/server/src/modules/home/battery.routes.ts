import type { FastifyPluginAsync } from 'fastify';
import { homeApi as api } from '@iot/contract';
import { route } from '../../plugins/endpoint.js';

/**
 * GET /home/battery: declared in the contract, built on branch dash-battery (which owns this
 * file). Until then it answers 50000 so the endpoint table and the registered routes agree.
 */
export const homeBatteryRoutes: FastifyPluginAsync = async (app) => {
  route(app, api.battery, async () => {
    throw new Error('/home/battery is not built yet');
  });
};
