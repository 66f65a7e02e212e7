import type { FastifyPluginAsync } from 'fastify';
import { trackApi as api } from '@iot/contract';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { TrackService } from './track.service.js';

/** §7 /device/locus (packages/contract/src/routes/track.ts, schemas in api/track.ts). */
export const trackRoutes: FastifyPluginAsync<{ tracks: TrackService }> = async (app, { tracks }) => {
  route(app, api.locus, async (req) => ok(await tracks.locus(authOf(req), req.query)));
  route(app, api.locusRange, async (req) => ok(await tracks.locusRange(authOf(req), req.query.id)));
  route(app, api.locusExport, async (req, reply) => {
    const file = await tracks.locusExport(authOf(req), req.query);
    return reply
      .header('content-type', file.type)
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .send(file.body);
  });
};
