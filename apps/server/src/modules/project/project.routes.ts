import type { FastifyPluginAsync } from 'fastify';
import { projectApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { ProjectService } from './project.service.js';
import type { WeatherService } from './weather.service.js';

export const projectRoutes: FastifyPluginAsync<{ projects: ProjectService; weather: WeatherService }> = async (app, { projects, weather }) => {
  route(app, api.list, async (req) => ok(await projects.list(authOf(req), req.query)));
  route(app, api.item, async (req) => ok(await projects.item(authOf(req), req.query.id)));
  // Visible projects only (item refuses others); the forecast is the project's own.
  route(app, api.weather, async (req) => ok(await weather.forProject(await projects.item(authOf(req), req.query.id))));
  route(app, api.add, async (req) => ok({ id: await projects.create(actorOf(req), req.body) }, 'project created'));
  route(app, api.edit, async (req) => {
    await projects.edit(actorOf(req), req.body);
    return ok(null, 'project updated');
  });
  route(app, api.remove, async (req) => {
    await projects.remove(actorOf(req), req.query.id, req.query.moveTo);
    return ok(null, 'project deleted');
  });
  route(app, api.roadSections, async (req) =>
    ok(await projects.roadSections(authOf(req), req.query.projectId, req.query.page, req.query.limit)),
  );
  route(app, api.addRoadSection, async (req) => ok({ id: await projects.addRoadSection(actorOf(req), req.body) }, 'road section created'));
  route(app, api.editRoadSection, async (req) => {
    await projects.editRoadSection(actorOf(req), req.body);
    return ok(null, 'road section updated');
  });
  route(app, api.removeRoadSection, async (req) => {
    await projects.removeRoadSection(actorOf(req), req.query.id);
    return ok(null, 'road section deleted');
  });
  route(app, api.users, async (req) => ok(await projects.users(authOf(req), req.query.id)));
  route(app, api.setUsers, async (req) => {
    await projects.setUsers(actorOf(req), req.body.id, req.body.userIds);
    return ok(null, 'project users saved');
  });
};
