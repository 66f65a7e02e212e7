import type { projectSchemas } from '../api/projects.js';
import { routes } from '../route.js';

/** §2 /project/index, /project/details, /project/userprojectlist. */
export const projectRoutes = routes<typeof projectSchemas>()({
  list: { method: 'GET', path: '/project/list', permission: ['project:list', 'device:list', 'device:add', 'device:edit'] },
  item: { method: 'GET', path: '/project/item', permission: ['project:list', 'project:detail'] },
  weather: { method: 'GET', path: '/project/weather', permission: ['project:list', 'project:detail'] },
  add: { method: 'POST', path: '/project/addproject', permission: 'project:add', audit: 'project.add' },
  edit: { method: 'POST', path: '/project/editproject', permission: 'project:edit', audit: 'project.edit' },
  remove: { method: 'DELETE', path: '/project/deleteproject', permission: 'project:delete', audit: 'project.delete' },
  roadSections: { method: 'GET', path: '/project/roadsectionlist', permission: ['project:list', 'project:detail'] },
  addRoadSection: { method: 'POST', path: '/project/addroadsection', permission: 'project:edit', audit: 'roadsection.add' },
  editRoadSection: { method: 'POST', path: '/project/editroadsection', permission: 'project:edit', audit: 'roadsection.edit' },
  removeRoadSection: {
    method: 'DELETE',
    path: '/project/deleteroadsection',
    permission: 'project:edit',
    audit: 'roadsection.delete',
  },
  users: { method: 'GET', path: '/project/userprojectlist', permission: ['project:users', 'project:detail'] },
  setUsers: { method: 'POST', path: '/project/setuserproject', permission: 'project:users', audit: 'project.users' },
});
