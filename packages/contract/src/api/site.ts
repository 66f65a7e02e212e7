import { endpoint } from '../endpoint.js';
import { PUBLIC } from '../permissions.js';
import { siteConfigSchema } from '../site.js';

/** §1 site configuration. */
export const siteApi = {
  config: endpoint({
    method: 'GET',
    path: '/config',
    permission: PUBLIC,
    tags: ['config'],
    summary: 'Site title, logo, company and login colours, localised (§1)',
    data: siteConfigSchema,
  }),
};
