import type { FastifyPluginAsync } from 'fastify';
import { userApi as api } from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { MenuService } from '../menu/menu.service.js';
import type { UserService } from './user.service.js';

export const userRoutes: FastifyPluginAsync<{ users: UserService; menus: MenuService }> = async (app, { users, menus }) => {
  // §7: also answers with the token in `?token` (links opened outside the console).
  route(app, api.info, async (req) => ok(await users.info(authOf(req))), { config: { queryToken: true } });
  route(app, api.menus, async (req) => ok(await menus.treeFor(authOf(req))));
  route(
    app,
    api.changePassword,
    async (req) => ok({ endedSessions: await users.changePassword(actorOf(req), req.body) }, 'password changed'),
    {
      config: {
        // Guesses of the current password: 10 a minute per session, on top of the lockout.
        rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: (req) => `changepassword:${req.auth?.sessionId ?? req.ip}` },
      },
    },
  );
  route(app, api.preferences, async (req) => {
    await users.setPreferences(actorOf(req), req.body);
    return ok(null, 'preferences saved');
  });
  route(app, api.preference, async (req) => ok(await users.preference(authOf(req), req.params.key)));
  route(app, api.setPreference, async (req) => ok(await users.setPreference(authOf(req), req.params.key, req.body.value)));
  route(app, api.logins, async (req) => {
    const { page, limit } = req.query;
    return ok(await users.logins(authOf(req), page, limit));
  });
};
