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
import { endpoint } from '../endpoint.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['permissions'];

/** §5 permission management. */
export const permissionApi = {
  list: endpoint({
    method: 'GET',
    path: '/permission/getlist',
    permission: 'permission:list',
    tags,
    query: permissionListQuerySchema,
    data: pageOf(permissionDtoSchema),
  }),
  item: endpoint({
    method: 'GET',
    path: '/permission/getitem',
    permission: 'permission:list',
    tags,
    query: idQuerySchema,
    data: permissionDtoSchema,
  }),
  menuOptions: endpoint({
    method: 'GET',
    path: '/permission/menuoptions',
    permission: 'permission:list',
    tags,
    summary: 'Menu tree to pick the owning menu',
    data: z.array(menuOptionSchema),
  }),
  add: endpoint({
    method: 'POST',
    path: '/permission/add',
    permission: 'permission:add',
    audit: 'permission.add',
    tags,
    body: permissionCreateSchema,
    data: createdSchema,
  }),
  edit: endpoint({
    method: 'POST',
    path: '/permission/edit',
    permission: 'permission:edit',
    audit: 'permission.edit',
    tags,
    body: permissionEditSchema,
    data: noDataSchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/permission/delete',
    permission: 'permission:delete',
    audit: 'permission.delete',
    tags,
    query: idQuerySchema,
    data: noDataSchema,
  }),
};
