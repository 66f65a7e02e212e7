import { z } from 'zod';
import { idQuerySchema } from '../admin.js';
import {
  projectCreateSchema,
  projectDeleteQuerySchema,
  projectDtoSchema,
  projectEditSchema,
  projectListQuerySchema,
  projectUserSchema,
  projectWeatherSchema,
  projectUsersSetSchema,
  roadSectionDtoSchema,
  roadSectionEditSchema,
  roadSectionListQuerySchema,
  roadSectionSchema,
} from '../devices.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { projectRoutes } from '../routes/projects.js';
import { createdSchema, noDataSchema } from './common.js';

const tags = ['projects'];

/** The schemas of `projectRoutes` (routes/projects.ts). */
export const projectSchemas = {
  list: { tags, query: projectListQuerySchema, data: pageOf(projectDtoSchema) },
  item: { tags, query: idQuerySchema, data: projectDtoSchema },
  weather: {
    tags,
    summary: "The weather forecast at the project's position (its weather switch on), cached for an hour",
    query: idQuerySchema,
    data: projectWeatherSchema,
  },
  add: { tags, body: projectCreateSchema, data: createdSchema },
  edit: { tags, body: projectEditSchema, data: noDataSchema },
  remove: {
    tags,
    summary: 'Delete a project; with devices, `moveTo` (project id, or 0 for none) is required',
    query: projectDeleteQuerySchema,
    data: noDataSchema,
  },
  roadSections: { tags, query: roadSectionListQuerySchema, data: pageOf(roadSectionDtoSchema) },
  addRoadSection: { tags, body: roadSectionSchema, data: createdSchema },
  editRoadSection: { tags, body: roadSectionEditSchema, data: noDataSchema },
  removeRoadSection: { tags, query: idQuerySchema, data: noDataSchema },
  users: { tags, summary: 'Users assigned to a project', query: idQuerySchema, data: z.array(projectUserSchema) },
  setUsers: {
    tags,
    summary: 'Assign users (of the caller’s subtree) to a project',
    body: projectUsersSetSchema,
    data: noDataSchema,
  },
} satisfies EndpointSchemaTable;
export const projectApi = endpoints(projectRoutes, projectSchemas);
