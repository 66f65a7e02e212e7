import type { userAdminSchemas, userSchemas } from '../api/users.js';
import { AUTHENTICATED, USER_PICKER_PERMISSIONS, type PermissionCode } from '../permissions.js';
import { routes } from '../route.js';

/** The signed-in user's own account (§1, §4 personal centre). */
export const userRoutes = routes<typeof userSchemas>()({
  info: { method: 'GET', path: '/user/info', permission: AUTHENTICATED },
  menus: { method: 'GET', path: '/user/menutestlist', permission: AUTHENTICATED },
  changePassword: { method: 'POST', path: '/user/changepassword', permission: AUTHENTICATED, audit: 'user.changepassword' },
  preferences: { method: 'POST', path: '/user/preferences', permission: AUTHENTICATED, audit: 'user.preferences' },
  logins: { method: 'GET', path: '/user/logins', permission: AUTHENTICATED },
  // A screen setting (a list's column choice): the caller's own only; not an audited change.
  preference: { method: 'GET', path: '/user/preferences/:key', permission: AUTHENTICATED },
  setPreference: { method: 'PUT', path: '/user/preferences/:key', permission: AUTHENTICATED, audit: false },
});

/** One API behind three screens (/sys/adminuser, /sys/user, /user/agent): any of their codes opens it. */
const any = (verb: 'list' | 'add' | 'edit' | 'delete'): readonly PermissionCode[] => [
  `admin:${verb}`,
  `user:${verb}`,
  `agent:${verb}`,
];

/** §5 user management (administrators, users, agents) and a user's emails. */
export const userAdminRoutes = routes<typeof userAdminSchemas>()({
  list: { method: 'GET', path: '/user/list', permission: any('list') },
  item: { method: 'GET', path: '/user/item', permission: any('list') },
  options: { method: 'GET', path: '/user/options', permission: USER_PICKER_PERMISSIONS },
  add: { method: 'POST', path: '/user/add', permission: any('add'), audit: 'user.add' },
  edit: { method: 'POST', path: '/user/edit', permission: any('edit'), audit: 'user.edit' },
  remove: { method: 'DELETE', path: '/user/delete', permission: any('delete'), audit: 'user.delete' },
  resetPassword: { method: 'POST', path: '/user/repassword', permission: any('edit'), audit: 'user.repassword' },
  unlock: { method: 'POST', path: '/user/unlock', permission: any('edit'), audit: 'user.unlock' },
  emails: { method: 'GET', path: '/user/emaillist', permission: AUTHENTICATED },
  addEmail: { method: 'POST', path: '/user/addemail', permission: AUTHENTICATED, audit: 'email.add' },
  removeEmail: { method: 'DELETE', path: '/user/deleteemail', permission: AUTHENTICATED, audit: 'email.delete' },
});
