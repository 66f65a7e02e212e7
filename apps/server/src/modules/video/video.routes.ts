import type { FastifyPluginAsync } from 'fastify';
import { videoApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { VideoService } from './video.service.js';

export const videoRoutes: FastifyPluginAsync<{ video: VideoService }> = async (app, { video }) => {
  route(app, api.h5Url, async (req) => ok(await video.h5Url(actorOf(req), req.body.deviceId)));
};
