import type { homeSchemas } from '../api/home.js';
import { routes } from '../route.js';

/**
 * The home dashboard (§1, §7 /home/*): figures of the caller's fleet, scoped like the device and
 * alarm lists. `home:view` opens all of them (granted to the built-in roles).
 */
export const homeRoutes = routes<typeof homeSchemas>()({
  list: { method: 'GET', path: '/home/list', permission: 'home:view' },
  deviceTotals: { method: 'GET', path: '/home/devicetotals', permission: 'home:view' },
  projectList: { method: 'GET', path: '/home/projectlist', permission: 'home:view' },
  levelNum: { method: 'GET', path: '/home/levelnum', permission: 'home:view' },
  alarmNum: { method: 'GET', path: '/home/alarmnum', permission: 'home:view' },
  top5: { method: 'GET', path: '/home/gettop5', permission: 'home:view' },
  deviceList: { method: 'GET', path: '/home/devicelist', permission: 'home:view' },
  battery: { method: 'GET', path: '/home/battery', permission: 'home:view' },
  voice: { method: 'GET', path: '/home/voice', permission: 'home:view' },
});
