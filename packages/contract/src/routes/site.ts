import type { siteSchemas } from '../api/site.js';
import { PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/** §1 site configuration. */
export const siteRoutes = routes<typeof siteSchemas>()({
  config: { method: 'GET', path: '/config', permission: PUBLIC },
  /** The super administrator's site settings page (issue #39). */
  update: { method: 'POST', path: '/site/config', permission: 'site:edit', audit: 'site.edit' },
});
