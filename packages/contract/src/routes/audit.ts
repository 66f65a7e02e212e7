import type { auditSchemas } from '../api/audit.js';
import { routes } from '../route.js';

/** §6 logs: operations and administrator logins, scoped to the caller's subtree (the device log: devicedata.ts). */
export const auditRoutes = routes<typeof auditSchemas>()({
  operations: { method: 'GET', path: '/logs/list', permission: 'log:operation' },
  logins: { method: 'GET', path: '/logs/loginlist', permission: 'log:device' },
});
