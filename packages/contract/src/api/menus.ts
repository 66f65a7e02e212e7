import { z } from 'zod';
import { idQuerySchema, menuCreateSchema, menuEditSchema, menuOptionSchema } from '../admin.js';
import { int4QuerySchema } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { menuRoutes } from '../routes/menus.js';
import { menuNodeSchema } from '../menu.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['menus'];

/** The schemas of `menuRoutes` (routes/menus.ts). */
export const menuSchemas = {
  tree: { tags, summary: 'The whole menu tree, for management', data: z.array(menuNodeSchema) },
  options: { tags, summary: 'Menu tree options for the parent-menu picker', data: z.array(menuOptionSchema) },
  add: { tags, body: menuCreateSchema, data: createdSchema },
  edit: { tags, body: menuEditSchema, data: noDataSchema },
  remove: { tags, query: idQuerySchema, data: noDataSchema },
  children: {
    tags,
    summary: 'The caller’s visible menus under one parent (parent_id 0: top level)',
    query: z.object({ parent_id: int4QuerySchema.default(0) }),
    data: z.array(menuNodeSchema),
  },
} satisfies EndpointSchemaTable;
export const menuApi = endpoints(menuRoutes, menuSchemas);
