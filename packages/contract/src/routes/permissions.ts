import type { permissionSchemas } from '../api/permissions.js';
import { routes } from '../route.js';

/** §5 permission management. */
export const permissionRoutes = routes<typeof permissionSchemas>()({
  list: { method: 'GET', path: '/permission/getlist', permission: 'permission:list' },
  item: { method: 'GET', path: '/permission/getitem', permission: 'permission:list' },
  menuOptions: { method: 'GET', path: '/permission/menuoptions', permission: 'permission:list' },
  add: { method: 'POST', path: '/permission/add', permission: 'permission:add', audit: 'permission.add' },
  edit: { method: 'POST', path: '/permission/edit', permission: 'permission:edit', audit: 'permission.edit' },
  remove: { method: 'DELETE', path: '/permission/delete', permission: 'permission:delete', audit: 'permission.delete' },
});
