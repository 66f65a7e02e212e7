import type { menuSchemas } from '../api/menus.js';
import { AUTHENTICATED } from '../permissions.js';
import { routes } from '../route.js';

/** §5 menu management, and the caller's visible menus by parent. */
export const menuRoutes = routes<typeof menuSchemas>()({
  tree: { method: 'GET', path: '/menu/menutestlist', permission: 'menu:list' },
  options: { method: 'GET', path: '/menu/menutestoptionslist', permission: ['menu:list', 'permission:list'] },
  add: { method: 'POST', path: '/menu/addmenutest', permission: 'menu:add', audit: 'menu.add' },
  edit: { method: 'POST', path: '/menu/editmenutest', permission: 'menu:edit', audit: 'menu.edit' },
  remove: { method: 'DELETE', path: '/menu/deletemenutest', permission: 'menu:delete', audit: 'menu.delete' },
  children: { method: 'GET', path: '/user/menulist', permission: AUTHENTICATED },
});
