import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { siteRoutes } from '../routes/site.js';
import { publicConfigSchema } from '../site.js';

/** The schemas of `siteRoutes` (routes/site.ts). */
export const siteSchemas = {
  config: {
    tags: ['config'],
    summary: 'Site title, logo, company and login colours, localised (§1), and how maps are drawn',
    data: publicConfigSchema,
  },
} satisfies EndpointSchemaTable;
export const siteApi = endpoints(siteRoutes, siteSchemas);
