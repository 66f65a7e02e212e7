import { z } from 'zod';
import {
  emailAddSchema,
  emailDtoSchema,
  idQuerySchema,
  optionSchema,
  preferenceBodySchema,
  preferenceDtoSchema,
  preferenceParamsSchema,
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
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { menuNodeSchema } from '../menu.js';
import { userAdminRoutes, userRoutes } from '../routes/users.js';
import { createdSchema, noDataSchema } from './common.js';

/** `data` of POST /user/changepassword: how many of the caller's other sessions were ended. */
export const changePasswordResultSchema = z.object({ endedSessions: z.number().int() });

/** The schemas of `userRoutes` (routes/users.ts). */
export const userSchemas = {
  info: {
    tags: ['user'],
    summary: 'The caller: roles, name, avatar, type, dashboard style, language, permissions',
    query: userInfoQuerySchema,
    data: userInfoSchema,
  },
  menus: { tags: ['user'], summary: 'The menu tree filtered by the caller’s permissions', data: z.array(menuNodeSchema) },
  changePassword: {
    tags: ['user'],
    summary: 'Change the caller’s password; ends the caller’s other sessions',
    body: changePasswordBodySchema,
    data: changePasswordResultSchema,
  },
  preferences: {
    tags: ['user'],
    summary:
    'Update the caller’s own profile (language, dashboard style, company details): only the fields sent, and only when they differ',
    body: preferencesSchema,
    data: noDataSchema,
  },
  logins: {
    tags: ['user'],
    summary: 'The caller’s own login history, newest first',
    query: pageQuerySchema,
    data: pageOf(loginRecordSchema),
  },
  preference: {
    tags: ['user'],
    summary: 'One of the caller’s own stored screen settings (a list’s column choice); null when never saved',
    params: preferenceParamsSchema,
    data: preferenceDtoSchema,
  },
  setPreference: {
    tags: ['user'],
    summary: 'Store one of the caller’s own screen settings (at most 50 keys, 4 KB each)',
    params: preferenceParamsSchema,
    body: preferenceBodySchema,
    data: preferenceDtoSchema,
  },
} satisfies EndpointSchemaTable;
export const userApi = endpoints(userRoutes, userSchemas);

const tags = ['users'];

/** The schemas of `userAdminRoutes` (routes/users.ts). */
export const userAdminSchemas = {
  list: {
    tags,
    summary: 'Users of the caller’s subtree (kind: admin | user | agent)',
    query: userListQuerySchema,
    data: pageOf(userDtoSchema),
  },
  item: { tags, query: idQuerySchema, data: userDtoSchema },
  options: { tags, summary: 'Searchable parent-user options', query: userOptionsQuerySchema, data: z.array(optionSchema) },
  add: { tags, body: userCreateSchema, data: createdSchema },
  edit: { tags, body: userEditSchema, data: noDataSchema },
  remove: { tags, query: idQuerySchema, data: noDataSchema },
  resetPassword: {
    tags,
    summary: 'Reset another user’s password; ends its sessions',
    body: userRepasswordSchema,
    data: noDataSchema,
  },
  unlock: { tags, summary: 'Lift a failed-login lock', body: z.object({ id: idNumberSchema }), data: noDataSchema },
  emails: { tags, summary: 'Emails of a user (id = user id)', query: idQuerySchema, data: z.array(emailDtoSchema) },
  addEmail: { tags, body: emailAddSchema, data: createdSchema },
  removeEmail: { tags, query: idQuerySchema, data: noDataSchema },
} satisfies EndpointSchemaTable;
export const userAdminApi = endpoints(userAdminRoutes, userAdminSchemas);
