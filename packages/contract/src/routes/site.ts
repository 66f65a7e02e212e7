import type { siteSchemas } from '../api/site.js';
import { PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/** §1 site configuration. */
export const siteRoutes = routes<typeof siteSchemas>()({
  config: { method: 'GET', path: '/config', permission: PUBLIC },
});
