import { z } from 'zod';
import {
  emailAddSchema,
  emailDtoSchema,
  idQuerySchema,
  optionSchema,
  preferencesSchema,
  userCreateSchema,
  userDtoSchema,
  userEditSchema,
  userListQuerySchema,
  userOptionsQuerySchema,
  userRepasswordSchema,
} from '../admin.js';
import { changePasswordBodySchema, loginRecordSchema, userInfoQuerySchema, userInfoSchema } from '../auth.js';
import { idNumberSchema, pageOf, pageQuerySchema } from '../envelope.js';
import { endpoint } from '../endpoint.js';
import { menuNodeSchema } from '../menu.js';
import { AUTHENTICATED, USER_PICKER_PERMISSIONS, type PermissionCode } from '../permissions.js';
import { createdSchema, noDataSchema } from './common.js';

/** `data` of POST /user/changepassword: how many of the caller's other sessions were ended. */
export const changePasswordResultSchema = z.object({ endedSessions: z.number().int() });

/** The signed-in user's own account (§1, §4 personal centre). */
export const userApi = {
  info: endpoint({
    method: 'GET',
    path: '/user/info',
    permission: AUTHENTICATED,
    tags: ['user'],
    summary: 'The caller: roles, name, avatar, type, dashboard style, language, permissions',
    query: userInfoQuerySchema,
    data: userInfoSchema,
  }),
  menus: endpoint({
    method: 'GET',
    path: '/user/menutestlist',
    permission: AUTHENTICATED,
    tags: ['user'],
    summary: 'The menu tree filtered by the caller’s permissions',
    data: z.array(menuNodeSchema),
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/user/changepassword',
    permission: AUTHENTICATED,
    audit: 'user.changepassword',
    tags: ['user'],
    summary: 'Change the caller’s password; ends the caller’s other sessions',
    body: changePasswordBodySchema,
    data: changePasswordResultSchema,
  }),
  preferences: endpoint({
    method: 'POST',
    path: '/user/preferences',
    permission: AUTHENTICATED,
    audit: 'user.preferences',
    tags: ['user'],
    summary:
      'Update the caller’s own profile (language, dashboard style, company details): only the fields sent, and only when they differ',
    body: preferencesSchema,
    data: noDataSchema,
  }),
  logins: endpoint({
    method: 'GET',
    path: '/user/logins',
    permission: AUTHENTICATED,
    tags: ['user'],
    summary: 'The caller’s own login history, newest first',
    query: pageQuerySchema,
    data: pageOf(loginRecordSchema),
  }),
};

/** One API behind three screens (/sys/adminuser, /sys/user, /user/agent): any of their codes opens it. */
const any = (verb: 'list' | 'add' | 'edit' | 'delete'): readonly PermissionCode[] => [
  `admin:${verb}`,
  `user:${verb}`,
  `agent:${verb}`,
];
const tags = ['users'];

/** §5 user management (administrators, users, agents) and a user's emails. */
export const userAdminApi = {
  list: endpoint({
    method: 'GET',
    path: '/user/list',
    permission: any('list'),
    tags,
    summary: 'Users of the caller’s subtree (kind: admin | user | agent)',
    query: userListQuerySchema,
    data: pageOf(userDtoSchema),
  }),
  item: endpoint({
    method: 'GET',
    path: '/user/item',
    permission: any('list'),
    tags,
    query: idQuerySchema,
    data: userDtoSchema,
  }),
  options: endpoint({
    method: 'GET',
    path: '/user/options',
    permission: USER_PICKER_PERMISSIONS,
    tags,
    summary: 'Searchable parent-user options',
    query: userOptionsQuerySchema,
    data: z.array(optionSchema),
  }),
  add: endpoint({
    method: 'POST',
    path: '/user/add',
    permission: any('add'),
    audit: 'user.add',
    tags,
    body: userCreateSchema,
    data: createdSchema,
  }),
  edit: endpoint({
    method: 'POST',
    path: '/user/edit',
    permission: any('edit'),
    audit: 'user.edit',
    tags,
    body: userEditSchema,
    data: noDataSchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/user/delete',
    permission: any('delete'),
    audit: 'user.delete',
    tags,
    query: idQuerySchema,
    data: noDataSchema,
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/user/repassword',
    permission: any('edit'),
    audit: 'user.repassword',
    tags,
    summary: 'Reset another user’s password; ends its sessions',
    body: userRepasswordSchema,
    data: noDataSchema,
  }),
  unlock: endpoint({
    method: 'POST',
    path: '/user/unlock',
    permission: any('edit'),
    audit: 'user.unlock',
    tags,
    summary: 'Lift a failed-login lock',
    body: z.object({ id: idNumberSchema }),
    data: noDataSchema,
  }),
  emails: endpoint({
    method: 'GET',
    path: '/user/emaillist',
    permission: AUTHENTICATED,
    tags,
    summary: 'Emails of a user (id = user id)',
    query: idQuerySchema,
    data: z.array(emailDtoSchema),
  }),
  addEmail: endpoint({
    method: 'POST',
    path: '/user/addemail',
    permission: AUTHENTICATED,
    audit: 'email.add',
    tags,
    body: emailAddSchema,
    data: createdSchema,
  }),
  removeEmail: endpoint({
    method: 'DELETE',
    path: '/user/deleteemail',
    permission: AUTHENTICATED,
    audit: 'email.delete',
    tags,
    query: idQuerySchema,
    data: noDataSchema,
  }),
};
