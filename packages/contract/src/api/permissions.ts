import { z } from 'zod';
import {
  idQuerySchema,
  menuOptionSchema,
  permissionCreateSchema,
  permissionDtoSchema,
  permissionEditSchema,
  permissionListQuerySchema,
} from '../admin.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { permissionRoutes } from '../routes/permissions.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['permissions'];

/** The schemas of `permissionRoutes` (routes/permissions.ts). */
export const permissionSchemas = {
  list: { tags, query: permissionListQuerySchema, data: pageOf(permissionDtoSchema) },
  item: { tags, query: idQuerySchema, data: permissionDtoSchema },
  menuOptions: { tags, summary: 'Menu tree to pick the owning menu', data: z.array(menuOptionSchema) },
  add: { tags, body: permissionCreateSchema, data: createdSchema },
  edit: { tags, body: permissionEditSchema, data: noDataSchema },
  remove: { tags, query: idQuerySchema, data: noDataSchema },
} satisfies EndpointSchemaTable;
export const permissionApi = endpoints(permissionRoutes, permissionSchemas);
