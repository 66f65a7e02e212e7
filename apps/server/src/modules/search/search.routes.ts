import type { FastifyPluginAsync } from 'fastify';
import { searchApi as api } from '@iot/contract';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { SearchService } from './search.service.js';

export const searchRoutes: FastifyPluginAsync<{ search: SearchService }> = async (app, { search }) => {
  route(app, api.find, async (req) => ok(await search.find(authOf(req), req.query.q)));
};
