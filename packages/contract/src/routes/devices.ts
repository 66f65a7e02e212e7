import type { deviceSchemas } from '../api/devices.js';
import { routes } from '../route.js';

/** §2 the device registry (latest values and the device log: devicedata.ts). */
export const deviceRoutes = routes<typeof deviceSchemas>()({
  list: { method: 'GET', path: '/device/list', permission: 'device:list' },
  search: { method: 'GET', path: '/device/seachList', permission: 'device:list' },
  basic: { method: 'GET', path: '/device/basic', permission: ['device:list', 'device:detail'] },
  subDevices: { method: 'GET', path: '/device/subdevicelist', permission: ['device:list', 'device:detail'] },
  subCount: { method: 'GET', path: '/device/subnum', permission: ['device:list', 'device:detail'] },
  add: { method: 'POST', path: '/device/add', permission: 'device:add', audit: 'device.add' },
  edit: { method: 'POST', path: '/device/edit', permission: 'device:edit', audit: 'device.edit' },
  remove: { method: 'DELETE', path: '/device/delete', permission: 'device:delete', audit: 'device.delete' },
  move: { method: 'POST', path: '/device/editdevicelistproject', permission: 'device:edit', audit: 'device.move' },
  credential: { method: 'POST', path: '/device/credential', permission: 'device:edit', audit: 'device.credential' },
  importTemplate: { method: 'GET', path: '/device/importtemplate', permission: 'device:import', kind: 'file' },
  import: { method: 'POST', path: '/device/import', permission: 'device:import', audit: 'device.import', kind: 'upload' },
  export: { method: 'GET', path: '/device/export', permission: 'device:list', kind: 'file', heavy: true },
});
