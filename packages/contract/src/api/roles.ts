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
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { roleRoutes } from '../routes/roles.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['roles'];

/** The schemas of `roleRoutes` (routes/roles.ts). */
export const roleSchemas = {
  list: { tags, query: roleListQuerySchema, data: pageOf(roleDtoSchema) },
  options: { tags, summary: 'Roles the caller may give to users', data: z.array(roleOptionSchema) },
  item: { tags, query: idQuerySchema, data: roleDtoSchema },
  add: { tags, body: roleCreateSchema, data: createdSchema },
  edit: { tags, body: roleEditSchema, data: noDataSchema },
  remove: { tags, query: idQuerySchema, data: noDataSchema },
  permissions: {
    tags,
    summary: 'The role’s permissions and the tree of what the caller may grant',
    query: idQuerySchema,
    data: rolePermissionViewSchema,
  },
  setPermissions: { tags, body: rolePermissionsSchema, data: noDataSchema },
} satisfies EndpointSchemaTable;
export const roleApi = endpoints(roleRoutes, roleSchemas);
