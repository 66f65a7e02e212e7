import type { roleSchemas } from '../api/roles.js';
import { routes } from '../route.js';

/** §5 role management. */
export const roleRoutes = routes<typeof roleSchemas>()({
  list: { method: 'GET', path: '/role/getlist', permission: 'role:list' },
  options: {
    method: 'GET',
    path: '/role/getoptionslist',
    permission: ['role:list', 'admin:add', 'admin:edit', 'user:add', 'user:edit', 'agent:add', 'agent:edit'],
  },
  item: { method: 'GET', path: '/role/getitem', permission: 'role:list' },
  add: { method: 'POST', path: '/role/add', permission: 'role:add', audit: 'role.add' },
  edit: { method: 'POST', path: '/role/edit', permission: 'role:edit', audit: 'role.edit' },
  remove: { method: 'DELETE', path: '/role/delete', permission: 'role:delete', audit: 'role.delete' },
  permissions: { method: 'GET', path: '/role/getpermission', permission: 'role:list' },
  setPermissions: { method: 'POST', path: '/role/setpermission', permission: 'role:edit', audit: 'role.setpermission' },
});
