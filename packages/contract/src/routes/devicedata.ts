import type { deviceDataSchemas } from '../api/devicedata.js';
import { PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/** Device data: the HTTP uplink (docs/PROTOCOL.md), latest values, the device log. */
export const deviceDataRoutes = routes<typeof deviceDataSchemas>()({
  /**
   * Devices authenticate themselves (HTTP Basic: SN and secret), not with a console session; not
   * an operator's action: the device log records what devices send.
   */
  ingest: { method: 'POST', path: '/ingest/:kind', permission: PUBLIC, audit: false },
  latest: { method: 'GET', path: '/device/latest', permission: 'device:list' },
  logs: { method: 'GET', path: '/logs/devicelogs', permission: 'log:device' },
});
