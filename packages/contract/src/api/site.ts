import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { siteRoutes } from '../routes/site.js';
import { noDataSchema } from './common.js';
import { publicConfigSchema, siteConfigEditSchema } from '../site.js';

/** The schemas of `siteRoutes` (routes/site.ts). */
export const siteSchemas = {
  config: {
    tags: ['config'],
    summary: 'Site title, logo, company and login colours, localised (§1), and how maps are drawn',
    data: publicConfigSchema,
  },
  update: {
    tags: ['config'],
    summary: 'Store the site title, company, contact details, logo and login colours (every field)',
    body: siteConfigEditSchema,
    data: noDataSchema,
  },
} satisfies EndpointSchemaTable;
export const siteApi = endpoints(siteRoutes, siteSchemas);
