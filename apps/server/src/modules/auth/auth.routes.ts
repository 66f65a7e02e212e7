import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTHENTICATED,
  PUBLIC,
  captchaInfoSchema,
  envelope,
  loginBodySchema,
  loginResultSchema,
} from '@iot/contract';
import { authOf, clientOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { AuthService } from './auth.service.js';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService }> = async (app, { auth }) => {
  app.get(
    '/login/captchaInfo',
    {
      config: { permission: PUBLIC, rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'A single-use captcha (SVG), valid for 2 minutes',
        response: { 200: envelope(captchaInfoSchema) },
      },
    },
    async () => ok(await auth.createCaptcha()),
  );

  app.post(
    '/user/login',
    {
      config: { permission: PUBLIC, audit: false, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'Log in; 5 failures from one address lock the account for 15 minutes',
        body: loginBodySchema,
        response: { 200: envelope(loginResultSchema) },
      },
    },
    async (req) => ok(await auth.login(req.body, clientOf(req)), 'login succeeded'),
  );

  app.post(
    '/user/logout',
    {
      config: { permission: AUTHENTICATED, audit: false },
      schema: { tags: ['auth'], summary: 'End this session', response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await auth.logout(authOf(req), clientOf(req));
      return ok(null, 'logged out');
    },
  );
};
