import type { alarmSchemas } from '../api/alarms.js';
import { AUTHENTICATED } from '../permissions.js';
import { routes } from '../route.js';

/** §1 monitor alarms; §7 /device/alarmlist, /device/alarmgroupinfo; the /project/alarminfo page. */
export const alarmRoutes = routes<typeof alarmSchemas>()({
  list: { method: 'GET', path: '/device/alarmlist', permission: ['alarm:list', 'device:detail'] },
  groups: { method: 'GET', path: '/device/alarmgroupinfo', permission: ['alarm:list', 'device:detail'] },
  bell: { method: 'GET', path: '/device/alarmbell', permission: AUTHENTICATED },
  process: { method: 'POST', path: '/device/processalarm', permission: 'alarm:handle', audit: 'alarm.process' },
  notices: { method: 'GET', path: '/device/alarmnotices', permission: ['alarm:list', 'device:detail'] },
  export: { method: 'GET', path: '/device/alarmexport', permission: ['alarm:list', 'device:detail'], kind: 'file', heavy: true },
});
