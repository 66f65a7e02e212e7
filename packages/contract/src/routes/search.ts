import type { searchSchemas } from '../api/search.js';
import { routes } from '../route.js';

/**
 * The navbar search over devices, projects and users (menus are searched in the console). Any of
 * the three lists' codes opens it; each group answers only to the holders of its own list code.
 */
export const searchRoutes = routes<typeof searchSchemas>()({
  find: {
    method: 'GET',
    path: '/search',
    permission: ['device:list', 'project:list', 'admin:list', 'user:list', 'agent:list'],
  },
});
