import type { trackSchemas } from '../api/track.js';
import { routes } from '../route.js';

/** §7 /device/locus: a device's track over a time range, where it opens, and its export. */
export const trackRoutes = routes<typeof trackSchemas>()({
  locus: { method: 'GET', path: '/device/locus', permission: 'device:track', heavy: true },
  locusRange: { method: 'GET', path: '/device/locusrange', permission: 'device:track' },
  locusExport: { method: 'GET', path: '/device/locus/export', permission: 'device:track', kind: 'file', heavy: true },
});
