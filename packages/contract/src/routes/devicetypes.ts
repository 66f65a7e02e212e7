import type { deviceTypeSchemas } from '../api/devicetypes.js';
import { AUTHENTICATED } from '../permissions.js';
import { routes } from '../route.js';

/** §3 device types: the types, their parameters and alarm rules. */
export const deviceTypeRoutes = routes<typeof deviceTypeSchemas>()({
  list: { method: 'GET', path: '/devicetype/list', permission: 'devicetype:list' },
  item: { method: 'GET', path: '/devicetype/item', permission: 'devicetype:list' },
  options: {
    method: 'GET',
    path: '/devicetype/typeoptionslist',
    permission: ['devicetype:list', 'device:list', 'device:add', 'device:edit'],
  },
  visible: { method: 'GET', path: '/user/devicetypelist', permission: AUTHENTICATED },
  add: { method: 'POST', path: '/devicetype/addtype', permission: 'devicetype:add', audit: 'devicetype.add' },
  edit: { method: 'POST', path: '/devicetype/edittype', permission: 'devicetype:edit', audit: 'devicetype.edit' },
  remove: { method: 'DELETE', path: '/devicetype/deletetype', permission: 'devicetype:delete', audit: 'devicetype.delete' },
  params: { method: 'GET', path: '/devicetype/setparam', permission: ['devicetype:paramview', 'devicetype:param'] },
  setParams: { method: 'POST', path: '/devicetype/addsetparam', permission: 'devicetype:param', audit: 'devicetype.setparam' },
  alarms: { method: 'GET', path: '/devicetype/setalarm', permission: ['devicetype:alarmview', 'devicetype:alarm'] },
  setAlarms: { method: 'POST', path: '/devicetype/addsetalarm', permission: 'devicetype:alarm', audit: 'devicetype.setalarm' },
});
