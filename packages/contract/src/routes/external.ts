import type { externalSchemas } from '../api/external.js';
import { PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/**
 * External devices (§7 Hardware and the external half of §7 Upgrade): the registry of devices
 * outside the console's (by IMEI or serial), their firmware assignments, their logs, and the two
 * routes the devices call themselves (docs/PROTOCOL.md, "External devices").
 */
export const externalRoutes = routes<typeof externalSchemas>()({
  add: { method: 'POST', path: '/hardware/addDevice', permission: 'upgrade:external', audit: 'external.add' },
  list: { method: 'GET', path: '/hardware/getlist', permission: 'upgrade:external' },
  logs: { method: 'GET', path: '/hardware/getlogslist', permission: 'upgrade:external' },
  remove: { method: 'DELETE', path: '/hardware/deleteDevice', permission: 'upgrade:external', audit: 'external.delete' },
  removeLogs: { method: 'DELETE', path: '/hardware/deleteLogsDevice', permission: 'upgrade:external', audit: 'external.deletelogs' },
  upgrades: { method: 'GET', path: '/external/list', permission: 'upgrade:external' },
  upgradeLogs: { method: 'GET', path: '/external/loglist', permission: 'upgrade:external' },
  assign: { method: 'POST', path: '/external/setupgrade', permission: 'upgrade:external', audit: 'external.setupgrade' },
  cancel: { method: 'POST', path: '/external/closeupgrade', permission: 'upgrade:external', audit: 'external.closeupgrade' },
  versionOptions: { method: 'GET', path: '/external/versionoptions', permission: 'upgrade:external' },
  /**
   * The devices' own: authenticated by the external device's identifier and credential (HTTP
   * Basic), not a console session; not an operator's action (the external log records them).
   */
  checkin: { method: 'POST', path: '/hardware/checkin', permission: PUBLIC, audit: false },
  firmware: { method: 'GET', path: '/hardware/firmware/:versionId', permission: PUBLIC, kind: 'file' },
});
