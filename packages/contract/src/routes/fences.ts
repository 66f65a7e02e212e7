import type { fenceSchemas } from '../api/fences.js';
import { routes } from '../route.js';

/** §7 geo-fences of a device: set, remove, re-lock (device commands), and the list with history. */
export const fenceRoutes = routes<typeof fenceSchemas>()({
  list: { method: 'GET', path: '/device/fencelist', permission: ['device:detail', 'device:fence'] },
  set: { method: 'POST', path: '/device/setfence', permission: 'device:fence', audit: 'fence.set' },
  close: { method: 'POST', path: '/device/setclosefence', permission: 'device:fence', audit: 'fence.close' },
  relock: { method: 'POST', path: '/device/setrefence', permission: 'device:fence', audit: 'fence.relock' },
});
