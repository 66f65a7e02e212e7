import { z } from 'zod';
import {
  idQuerySchema,
  roleCreateSchema,
  roleDtoSchema,
  roleEditSchema,
  roleListQuerySchema,
  roleOptionSchema,
  rolePermissionViewSchema,
  rolePermissionsSchema,
} from '../admin.js';
import { pageOf } from '../envelope.js';
import { endpoint } from '../endpoint.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['roles'];

/** §5 role management. */
export const roleApi = {
  list: endpoint({
    method: 'GET',
    path: '/role/getlist',
    permission: 'role:list',
    tags,
    query: roleListQuerySchema,
    data: pageOf(roleDtoSchema),
  }),
  options: endpoint({
    method: 'GET',
    path: '/role/getoptionslist',
    permission: ['role:list', 'admin:add', 'admin:edit', 'user:add', 'user:edit', 'agent:add', 'agent:edit'],
    tags,
    summary: 'Roles the caller may give to users',
    data: z.array(roleOptionSchema),
  }),
  item: endpoint({
    method: 'GET',
    path: '/role/getitem',
    permission: 'role:list',
    tags,
    query: idQuerySchema,
    data: roleDtoSchema,
  }),
  add: endpoint({
    method: 'POST',
    path: '/role/add',
    permission: 'role:add',
    audit: 'role.add',
    tags,
    body: roleCreateSchema,
    data: createdSchema,
  }),
  edit: endpoint({
    method: 'POST',
    path: '/role/edit',
    permission: 'role:edit',
    audit: 'role.edit',
    tags,
    body: roleEditSchema,
    data: noDataSchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/role/delete',
    permission: 'role:delete',
    audit: 'role.delete',
    tags,
    query: idQuerySchema,
    data: noDataSchema,
  }),
  permissions: endpoint({
    method: 'GET',
    path: '/role/getpermission',
    permission: 'role:list',
    tags,
    summary: 'The role’s permissions and the tree of what the caller may grant',
    query: idQuerySchema,
    data: rolePermissionViewSchema,
  }),
  setPermissions: endpoint({
    method: 'POST',
    path: '/role/setpermission',
    permission: 'role:edit',
    audit: 'role.setpermission',
    tags,
    body: rolePermissionsSchema,
    data: noDataSchema,
  }),
};
