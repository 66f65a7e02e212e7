import { z } from 'zod';
import { LANGUAGES } from '../enums.js';
import { clientErrorDtoSchema, clientErrorQuerySchema, clientErrorReportSchema } from '../client-errors.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { clientErrorRoutes } from '../routes/clienterrors.js';
import { noDataSchema } from './common.js';

const tags = ['logs'];

/** The schemas of `clientErrorRoutes` (routes/clienterrors.ts). */
export const clientErrorSchemas = {
  report: { tags, summary: 'Report an error the console hit in this browser (no session needed; 20 a minute per address)', body: clientErrorReportSchema, data: noDataSchema },
  list: { tags, summary: 'Errors browsers reported, newest first', query: clientErrorQuerySchema, data: pageOf(clientErrorDtoSchema) },
  export: {
    tags,
    summary: 'The listed errors as an .xlsx file (at most 10,000)',
    query: clientErrorQuerySchema.omit({ page: true, limit: true, after: true }).extend({ lang: z.enum(LANGUAGES).default('en') }),
    data: z.null(),
  },
} satisfies EndpointSchemaTable;
export const clientErrorApi = endpoints(clientErrorRoutes, clientErrorSchemas);
