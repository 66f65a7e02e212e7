import type { FastifyPluginAsync } from 'fastify';
import { userAdminApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { UserAdminService } from './admin.service.js';

export const userAdminRoutes: FastifyPluginAsync<{ admin: UserAdminService }> = async (app, { admin }) => {
  route(app, api.list, async (req) => ok(await admin.list(authOf(req), req.query)));
  route(app, api.item, async (req) => ok(await admin.item(authOf(req), req.query.id)));
  route(app, api.options, async (req) => ok(await admin.options(authOf(req), req.query.q, req.query.limit)));
  route(app, api.add, async (req) => ok({ id: await admin.create(actorOf(req), req.body) }, 'user created'));
  route(app, api.edit, async (req) => {
    await admin.edit(actorOf(req), req.body);
    return ok(null, 'user updated');
  });
  route(app, api.remove, async (req) => {
    await admin.remove(actorOf(req), req.query.id);
    return ok(null, 'user deleted');
  });
  route(app, api.resetPassword, async (req) => {
    await admin.resetPassword(actorOf(req), req.body.id, req.body.password);
    return ok(null, 'password reset');
  });
  route(app, api.unlock, async (req) => {
    await admin.unlock(actorOf(req), req.body.id);
    return ok(null, 'user unlocked');
  });
  route(app, api.emails, async (req) => ok(await admin.emails(authOf(req), req.query.id)));
  route(app, api.addEmail, async (req) =>
    ok({ id: await admin.addEmail(actorOf(req), req.body.userId, req.body.email) }, 'email added'),
  );
  route(app, api.removeEmail, async (req) => {
    await admin.deleteEmail(actorOf(req), req.query.id);
    return ok(null, 'email deleted');
  });
};
