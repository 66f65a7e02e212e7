import type { mapSchemas } from '../api/map.js';
import { routes } from '../route.js';

/** The fleet and project maps (issue #35): `map:view` opens them (menu Projects → Map). */
export const mapRoutes = routes<typeof mapSchemas>()({
  positions: { method: 'GET', path: '/map/positions', permission: 'map:view' },
});
