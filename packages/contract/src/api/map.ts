import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { mapPositionsQuerySchema, mapPositionsSchema } from '../map.js';
import { mapRoutes } from '../routes/map.js';

const tags = ['map'];

/** The schemas of `mapRoutes` (routes/map.ts). */
export const mapSchemas = {
  positions: {
    tags,
    summary: 'Positions, state and warning level of the caller’s devices on maps (projects with maps on), in columns',
    query: mapPositionsQuerySchema,
    data: mapPositionsSchema,
  },
} satisfies EndpointSchemaTable;

export const mapApi = endpoints(mapRoutes, mapSchemas);
