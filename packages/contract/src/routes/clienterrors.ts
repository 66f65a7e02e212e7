import type { clientErrorSchemas } from '../api/clienterrors.js';
import { PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/** Errors the console hit in browsers (issue #39): reported by any page, read by who holds log:client. */
export const clientErrorRoutes = routes<typeof clientErrorSchemas>()({
  // No operation-log row: a report is not an operation, and it is rate limited per address.
  report: { method: 'POST', path: '/client/errors', permission: PUBLIC, audit: false },
  list: { method: 'GET', path: '/logs/clienterrors', permission: 'log:client' },
  export: { method: 'GET', path: '/logs/clienterrorexport', permission: 'log:client', kind: 'file', heavy: true },
});
