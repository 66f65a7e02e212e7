import { z } from 'zod';
import { idQuerySchema } from '../admin.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { trackRoutes } from '../routes/track.js';
import { locusDataSchema, locusExportQuerySchema, locusQuerySchema, locusRangeSchema } from '../track.js';

const tags = ['tracks'];

/** The schemas of `trackRoutes` (routes/track.ts). */
export const trackSchemas = {
  locus: {
    tags,
    summary:
      'A device’s GPS fixes in [from, to) (at most 31 days) in time order with cumulative distance, totals and stops; ' +
      'more than `maxPoints` fixes are simplified (Douglas–Peucker in meters, start, end and stops kept)',
    query: locusQuerySchema,
    data: locusDataSchema,
  },
  locusRange: {
    tags,
    summary: 'Where the track opens: the last day up to the device’s newest fix, from the first fix of that day',
    query: idQuerySchema,
    data: locusRangeSchema,
  },
  locusExport: {
    tags,
    summary: 'The track as a .csv or .gpx download, every fix of the range or the simplified points',
    query: locusExportQuerySchema,
    data: z.null(),
  },
} satisfies EndpointSchemaTable;
export const trackApi = endpoints(trackRoutes, trackSchemas);
