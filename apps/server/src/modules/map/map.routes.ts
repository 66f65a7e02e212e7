import type { FastifyPluginAsync } from 'fastify';
import { mapApi as api } from '@iot/contract';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { MapService } from './map.service.js';

/** GET /map/positions: the fleet and project maps. */
export const mapRoutes: FastifyPluginAsync<{ map: MapService }> = async (app, { map }) => {
  route(app, api.positions, async (req) => ok(await map.positions(authOf(req), req.query)));
};
