import { z } from 'zod';
import { idQuerySchema, menuCreateSchema, menuEditSchema, menuOptionSchema } from '../admin.js';
import { int4QuerySchema } from '../envelope.js';
import { endpoint } from '../endpoint.js';
import { menuNodeSchema } from '../menu.js';
import { AUTHENTICATED } from '../permissions.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['menus'];

/** §5 menu management, and the caller's visible menus by parent. */
export const menuApi = {
  tree: endpoint({
    method: 'GET',
    path: '/menu/menutestlist',
    permission: 'menu:list',
    tags,
    summary: 'The whole menu tree, for management',
    data: z.array(menuNodeSchema),
  }),
  options: endpoint({
    method: 'GET',
    path: '/menu/menutestoptionslist',
    permission: ['menu:list', 'permission:list'],
    tags,
    summary: 'Menu tree options for the parent-menu picker',
    data: z.array(menuOptionSchema),
  }),
  add: endpoint({
    method: 'POST',
    path: '/menu/addmenutest',
    permission: 'menu:add',
    audit: 'menu.add',
    tags,
    body: menuCreateSchema,
    data: createdSchema,
  }),
  edit: endpoint({
    method: 'POST',
    path: '/menu/editmenutest',
    permission: 'menu:edit',
    audit: 'menu.edit',
    tags,
    body: menuEditSchema,
    data: noDataSchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/menu/deletemenutest',
    permission: 'menu:delete',
    audit: 'menu.delete',
    tags,
    query: idQuerySchema,
    data: noDataSchema,
  }),
  children: endpoint({
    method: 'GET',
    path: '/user/menulist',
    permission: AUTHENTICATED,
    tags,
    summary: 'The caller’s visible menus under one parent (parent_id 0: top level)',
    query: z.object({ parent_id: int4QuerySchema.default(0) }),
    data: z.array(menuNodeSchema),
  }),
};
