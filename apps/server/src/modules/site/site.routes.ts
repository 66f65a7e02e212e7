import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC, envelope, siteConfigSchema } from '@iot/contract';
import { ok } from '../../plugins/envelope.js';
import type { SiteService } from './site.service.js';

export const siteRoutes: FastifyPluginAsyncZod<{ site: SiteService }> = async (app, { site }) => {
  app.get(
    '/config',
    {
      config: { permission: PUBLIC },
      schema: {
        tags: ['config'],
        summary: 'Site title, logo, company and login colours, localised (§1)',
        response: { 200: envelope(siteConfigSchema) },
      },
    },
    async () => ok(await site.config()),
  );
};
