import type { FastifyPluginAsync } from 'fastify';
import { homeApi as api } from '@iot/contract';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { HomeService } from './home.service.js';

/** §7 /home/* but /home/battery (battery.routes.ts). */
export const homeRoutes: FastifyPluginAsync<{ home: HomeService }> = async (app, { home }) => {
  route(app, api.list, async (req) => ok(await home.summary(authOf(req), req.query.tz)));
  route(app, api.deviceTotals, async (req) => ok(await home.deviceTotals(authOf(req))));
  route(app, api.projectList, async (req) => ok(await home.projectList(authOf(req))));
  route(app, api.levelNum, async (req) => ok(await home.levelNum(authOf(req), req.query.tz)));
  route(app, api.alarmNum, async (req) => ok(await home.alarmNum(authOf(req), req.query)));
  route(app, api.top5, async (req) => ok(await home.top5(authOf(req), req.query)));
  route(app, api.deviceList, async (req) => ok(await home.deviceList(authOf(req), req.query)));
  route(app, api.voice, async (req) => ok(await home.voice(authOf(req), req.query)));
};
