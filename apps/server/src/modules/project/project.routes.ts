import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelope,
  idQuerySchema,
  pageOf,
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
} from '@iot/contract';
import { actorOf } from '../../plugins/audit.js';
import { authOf } from '../../plugins/auth.js';
import { ok } from '../../plugins/envelope.js';
import type { ProjectService } from './project.service.js';

const none = envelope(z.null());
const created = envelope(z.object({ id: z.number().int() }));

export const projectRoutes: FastifyPluginAsyncZod<{ projects: ProjectService }> = async (app, { projects }) => {
  const tags = ['projects'];
  app.get(
    '/project/list',
    { config: { permission: ['project:list', 'device:list', 'device:add', 'device:edit'] }, schema: { tags, querystring: projectListQuerySchema, response: { 200: envelope(pageOf(projectDtoSchema)) } } },
    async (req) => ok(await projects.list(authOf(req), req.query)),
  );
  app.get(
    '/project/item',
    { config: { permission: ['project:list', 'project:detail'] }, schema: { tags, querystring: idQuerySchema, response: { 200: envelope(projectDtoSchema) } } },
    async (req) => ok(await projects.item(authOf(req), req.query.id)),
  );
  app.post(
    '/project/addproject',
    { config: { permission: 'project:add', audit: 'project.add' }, schema: { tags, body: projectCreateSchema, response: { 200: created } } },
    async (req) => ok({ id: await projects.create(actorOf(req), req.body) }, 'project created'),
  );
  app.post(
    '/project/editproject',
    { config: { permission: 'project:edit', audit: 'project.edit' }, schema: { tags, body: projectEditSchema, response: { 200: none } } },
    async (req) => {
      await projects.edit(actorOf(req), req.body);
      return ok(null, 'project updated');
    },
  );
  app.delete(
    '/project/deleteproject',
    {
      config: { permission: 'project:delete', audit: 'project.delete' },
      schema: { tags, summary: 'Delete a project; with devices, `moveTo` (project id, or 0 for none) is required', querystring: projectDeleteQuerySchema, response: { 200: none } },
    },
    async (req) => {
      await projects.remove(actorOf(req), req.query.id, req.query.moveTo);
      return ok(null, 'project deleted');
    },
  );
  app.get(
    '/project/roadsectionlist',
    { config: { permission: ['project:list', 'project:detail'] }, schema: { tags, querystring: roadSectionListQuerySchema, response: { 200: envelope(pageOf(roadSectionDtoSchema)) } } },
    async (req) => ok(await projects.roadSections(authOf(req), req.query.projectId, req.query.page, req.query.limit)),
  );
  app.post(
    '/project/addroadsection',
    { config: { permission: 'project:edit', audit: 'roadsection.add' }, schema: { tags, body: roadSectionSchema, response: { 200: created } } },
    async (req) => ok({ id: await projects.addRoadSection(actorOf(req), req.body) }, 'road section created'),
  );
  app.post(
    '/project/editroadsection',
    { config: { permission: 'project:edit', audit: 'roadsection.edit' }, schema: { tags, body: roadSectionEditSchema, response: { 200: none } } },
    async (req) => {
      await projects.editRoadSection(actorOf(req), req.body);
      return ok(null, 'road section updated');
    },
  );
  app.delete(
    '/project/deleteroadsection',
    { config: { permission: 'project:edit', audit: 'roadsection.delete' }, schema: { tags, querystring: idQuerySchema, response: { 200: none } } },
    async (req) => {
      await projects.removeRoadSection(actorOf(req), req.query.id);
      return ok(null, 'road section deleted');
    },
  );
  app.get(
    '/project/userprojectlist',
    { config: { permission: ['project:users', 'project:detail'] }, schema: { tags, summary: 'Users assigned to a project', querystring: idQuerySchema, response: { 200: envelope(z.array(projectUserSchema)) } } },
    async (req) => ok(await projects.users(authOf(req), req.query.id)),
  );
  app.post(
    '/project/setuserproject',
    { config: { permission: 'project:users', audit: 'project.users' }, schema: { tags, summary: 'Assign users (of the caller’s subtree) to a project', body: projectUsersSetSchema, response: { 200: none } } },
    async (req) => {
      await projects.setUsers(actorOf(req), req.body.id, req.body.userIds);
      return ok(null, 'project users saved');
    },
  );
};
