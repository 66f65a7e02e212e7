import { loginLogDtoSchema, loginLogQuerySchema, operationLogDtoSchema, operationLogQuerySchema } from '../admin.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { auditRoutes } from '../routes/audit.js';

const tags = ['logs'];

/** The schemas of `auditRoutes` (routes/audit.ts). */
export const auditSchemas = {
  operations: { tags, summary: 'Operation logs', query: operationLogQuerySchema, data: pageOf(operationLogDtoSchema) },
  logins: { tags, summary: 'Administrator login logs', query: loginLogQuerySchema, data: pageOf(loginLogDtoSchema) },
} satisfies EndpointSchemaTable;
export const auditApi = endpoints(auditRoutes, auditSchemas);
