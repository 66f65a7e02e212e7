import { z } from 'zod';
import { idQuerySchema } from '../admin.js';
import {
  projectCreateSchema,
  projectDeleteQuerySchema,
  projectDtoSchema,
  projectEditSchema,
  projectListQuerySchema,
  projectUserSchema,
  projectUsersSetSchema,
  roadSectionDtoSchema,
  roadSectionEditSchema,
  roadSectionListQuerySchema,
  roadSectionSchema,
} from '../devices.js';
import { pageOf } from '../envelope.js';
import { endpoint } from '../endpoint.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['projects'];

/** §2 /project/index, /project/details, /project/userprojectlist. */
export const projectApi = {
  list: endpoint({
    method: 'GET',
    path: '/project/list',
    permission: ['project:list', 'device:list', 'device:add', 'device:edit'],
    tags,
    query: projectListQuerySchema,
    data: pageOf(projectDtoSchema),
  }),
  item: endpoint({
    method: 'GET',
    path: '/project/item',
    permission: ['project:list', 'project:detail'],
    tags,
    query: idQuerySchema,
    data: projectDtoSchema,
  }),
  add: endpoint({
    method: 'POST',
    path: '/project/addproject',
    permission: 'project:add',
    audit: 'project.add',
    tags,
    body: projectCreateSchema,
    data: createdSchema,
  }),
  edit: endpoint({
    method: 'POST',
    path: '/project/editproject',
    permission: 'project:edit',
    audit: 'project.edit',
    tags,
    body: projectEditSchema,
    data: noDataSchema,
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/project/deleteproject',
    permission: 'project:delete',
    audit: 'project.delete',
    tags,
    summary: 'Delete a project; with devices, `moveTo` (project id, or 0 for none) is required',
    query: projectDeleteQuerySchema,
    data: noDataSchema,
  }),
  roadSections: endpoint({
    method: 'GET',
    path: '/project/roadsectionlist',
    permission: ['project:list', 'project:detail'],
    tags,
    query: roadSectionListQuerySchema,
    data: pageOf(roadSectionDtoSchema),
  }),
  addRoadSection: endpoint({
    method: 'POST',
    path: '/project/addroadsection',
    permission: 'project:edit',
    audit: 'roadsection.add',
    tags,
    body: roadSectionSchema,
    data: createdSchema,
  }),
  editRoadSection: endpoint({
    method: 'POST',
    path: '/project/editroadsection',
    permission: 'project:edit',
    audit: 'roadsection.edit',
    tags,
    body: roadSectionEditSchema,
    data: noDataSchema,
  }),
  removeRoadSection: endpoint({
    method: 'DELETE',
    path: '/project/deleteroadsection',
    permission: 'project:edit',
    audit: 'roadsection.delete',
    tags,
    query: idQuerySchema,
    data: noDataSchema,
  }),
  users: endpoint({
    method: 'GET',
    path: '/project/userprojectlist',
    permission: ['project:users', 'project:detail'],
    tags,
    summary: 'Users assigned to a project',
    query: idQuerySchema,
    data: z.array(projectUserSchema),
  }),
  setUsers: endpoint({
    method: 'POST',
    path: '/project/setuserproject',
    permission: 'project:users',
    audit: 'project.users',
    tags,
    summary: 'Assign users (of the caller’s subtree) to a project',
    body: projectUsersSetSchema,
    data: noDataSchema,
  }),
};
