import { endpoint } from '../endpoint.js';
import { PUBLIC } from '../permissions.js';
import { publicConfigSchema } from '../site.js';

/** §1 site configuration. */
export const siteApi = {
  config: endpoint({
    method: 'GET',
    path: '/config',
    permission: PUBLIC,
    tags: ['config'],
    summary: 'Site title, logo, company and login colours, localised (§1), and how maps are drawn',
    data: publicConfigSchema,
  }),
};
