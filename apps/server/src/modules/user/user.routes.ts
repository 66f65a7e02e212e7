import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTHENTICATED,
  changePasswordBodySchema,
  envelope,
  loginRecordSchema,
  menuNodeSchema,
  pageOf,
  pageQuerySchema,
  preferencesSchema,
  userInfoQuerySchema,
  userInfoSchema,
} from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { MenuService } from '../menu/menu.service.js';
import type { UserService } from './user.service.js';

export const userRoutes: FastifyPluginAsyncZod<{ users: UserService; menus: MenuService }> = async (
  app,
  { users, menus },
) => {
  app.get(
    '/user/info',
    {
      config: { permission: AUTHENTICATED, queryToken: true },
      schema: {
        tags: ['user'],
        summary: 'The caller: roles, name, avatar, type, dashboard style, language, permissions',
        querystring: userInfoQuerySchema,
        response: { 200: envelope(userInfoSchema) },
      },
    },
    async (req) => ok(await users.info(authOf(req))),
  );

  app.get(
    '/user/menutestlist',
    {
      config: { permission: AUTHENTICATED },
      schema: {
        tags: ['user'],
        summary: 'The menu tree filtered by the caller’s permissions',
        response: { 200: envelope(z.array(menuNodeSchema)) },
      },
    },
    async (req) => ok(await menus.treeFor(authOf(req))),
  );

  app.post(
    '/user/changepassword',
    {
      config: {
        permission: AUTHENTICATED,
        audit: 'user.changepassword',
        // Guesses of the current password: 10 a minute per session, on top of the lockout.
        rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: (req) => `changepassword:${req.auth?.sessionId ?? req.ip}` },
      },
      schema: {
        tags: ['user'],
        summary: 'Change the caller’s password; ends the caller’s other sessions',
        body: changePasswordBodySchema,
        response: { 200: envelope(z.object({ endedSessions: z.number().int() })) },
      },
    },
    async (req) => {
      const endedSessions = await users.changePassword(actorOf(req), req.body);
      return ok({ endedSessions }, 'password changed');
    },
  );

  app.post(
    '/user/preferences',
    {
      config: { permission: AUTHENTICATED, audit: 'user.preferences' },
      schema: {
        tags: ['user'],
        summary: 'Update the caller’s own profile (language, dashboard style, company details): only the fields sent, and only when they differ',
        body: preferencesSchema,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await users.setPreferences(actorOf(req), req.body);
      return ok(null, 'preferences saved');
    },
  );

  app.get(
    '/user/logins',
    {
      config: { permission: AUTHENTICATED },
      schema: {
        tags: ['user'],
        summary: 'The caller’s own login history, newest first',
        querystring: pageQuerySchema,
        response: { 200: envelope(pageOf(loginRecordSchema)) },
      },
    },
    async (req) => {
      const { page, limit } = req.query;
      const res = await users.logins(authOf(req), page, limit);
      return ok({
        total: res.total,
        items: res.items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      });
    },
  );
};
