import type { campaignSchemas } from '../api/campaigns.js';
import { routes } from '../route.js';

/** §7 device upgrades: campaigns of a version over devices, their devices and their logs. */
export const campaignRoutes = routes<typeof campaignSchemas>()({
  list: { method: 'GET', path: '/upgrade/campaignlist', permission: 'upgrade:device' },
  devices: { method: 'GET', path: '/upgrade/devicelist', permission: 'upgrade:device' },
  logs: { method: 'GET', path: '/upgrade/loglist', permission: 'upgrade:device' },
  start: { method: 'POST', path: '/upgrade/setdeviceupgrade', permission: 'upgrade:device', audit: 'upgrade.start' },
  close: { method: 'POST', path: '/upgrade/closedeviceupgrade', permission: 'upgrade:device', audit: 'upgrade.cancel' },
});
