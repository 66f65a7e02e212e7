import { loginLogDtoSchema, loginLogQuerySchema, operationLogDtoSchema, operationLogQuerySchema } from '../admin.js';
import { pageOf } from '../envelope.js';
import { endpoint } from '../endpoint.js';

const tags = ['logs'];

/** §6 logs: operations and administrator logins, scoped to the caller's subtree (the device log: devicedata.ts). */
export const auditApi = {
  operations: endpoint({
    method: 'GET',
    path: '/logs/list',
    permission: 'log:operation',
    tags,
    summary: 'Operation logs',
    query: operationLogQuerySchema,
    data: pageOf(operationLogDtoSchema),
  }),
  logins: endpoint({
    method: 'GET',
    path: '/logs/loginlist',
    permission: 'log:device',
    tags,
    summary: 'Administrator login logs',
    query: loginLogQuerySchema,
    data: pageOf(loginLogDtoSchema),
  }),
};
