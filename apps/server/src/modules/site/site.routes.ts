import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PUBLIC, envelope, siteConfigSchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { ok } from '../../plugins/envelope.js';
import { SITE_DEFAULTS } from '../../db/seed/site.js';
import { readSiteConfig } from './site.repo.js';

export const siteRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
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
    async () => {
      // Stored values win; defaults fill fields added after the row was written.
      const stored = siteConfigSchema.partial().safeParse(await readSiteConfig(db));
      return ok({ ...SITE_DEFAULTS, ...(stored.success ? stored.data : {}) });
    },
  );
};
