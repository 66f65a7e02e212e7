import type { firmwareSchemas } from '../api/firmware.js';
import { PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/** §7 upgrade versions (/upgrade/list, add, edit, delete), the image upload, and the devices' download. */
export const firmwareRoutes = routes<typeof firmwareSchemas>()({
  upload: {
    method: 'POST',
    path: '/upgrade/upload',
    permission: ['upgrade:add', 'upgrade:edit'],
    audit: 'firmware.upload',
    kind: 'upload',
  },
  // Who starts device upgrades picks a version from this list (the campaign form).
  list: { method: 'GET', path: '/upgrade/list', permission: ['upgrade:list', 'upgrade:device'] },
  add: { method: 'POST', path: '/upgrade/add', permission: 'upgrade:add', audit: 'firmware.add' },
  edit: { method: 'POST', path: '/upgrade/edit', permission: 'upgrade:edit', audit: 'firmware.edit' },
  remove: { method: 'DELETE', path: '/upgrade/delete', permission: 'upgrade:delete', audit: 'firmware.delete' },
  /**
   * Devices download an uploaded image with their own credentials (HTTP Basic: SN and secret,
   * as the HTTP uplink), not a console session; a download changes no state (the device log
   * records it).
   */
  download: { method: 'GET', path: '/ingest/firmware/:versionId', permission: PUBLIC, kind: 'file' },
});
