import type { FastifyPluginAsync } from 'fastify';
import { authApi as api } from '@iot/contract';
import { authOf, clientOf } from '../../plugins/auth.js';
import { route } from '../../plugins/endpoint.js';
import { ok } from '../../plugins/envelope.js';
import type { AuthService } from './auth.service.js';

export const authRoutes: FastifyPluginAsync<{ auth: AuthService; loginsPerMinute: number }> = async (app, { auth, loginsPerMinute }) => {
  route(app, api.captcha, async () => ok(await auth.createCaptcha()), {
    config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
  });
  route(
    app,
    api.captchaAudio,
    async (req, reply) =>
      reply
        .header('content-type', 'audio/wav')
        .header('cache-control', 'no-store')
        .send(await auth.captchaAudio(req.query.key)),
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
  );
  route(app, api.login, async (req) => ok(await auth.login(req.body, clientOf(req)), 'login succeeded'), {
    config: { rateLimit: { max: loginsPerMinute, timeWindow: '1 minute' } },
  });
  route(app, api.logout, async (req) => {
    await auth.logout(authOf(req), clientOf(req));
    return ok(null, 'logged out');
  });
};
