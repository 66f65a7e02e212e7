import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { searchRoutes } from '../routes/search.js';
import { searchQuerySchema, searchResultSchema } from '../search.js';

/** The schemas of `searchRoutes` (routes/search.ts). */
export const searchSchemas = {
  find: {
    tags: ['search'],
    summary: 'Devices (SN, name), projects and users matching a text, the caller’s own only, a few per group',
    query: searchQuerySchema,
    data: searchResultSchema,
  },
} satisfies EndpointSchemaTable;
export const searchApi = endpoints(searchRoutes, searchSchemas);
