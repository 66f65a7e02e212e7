import { idQuerySchema } from '../admin.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { fenceDtoSchema, fenceListSchema, fenceRefSchema, fenceSetSchema } from '../fences.js';
import { fenceRoutes } from '../routes/fences.js';

const tags = ['geo-fences'];

/** The schemas of `fenceRoutes` (routes/fences.ts). */
export const fenceSchemas = {
  list: {
    tags,
    summary: 'The device’s geo-fences, newest first, each with its state and every transition (time, state, user, the device’s reason)',
    query: idQuerySchema,
    data: fenceListSchema,
  },
  set: {
    tags,
    summary:
      'A circular geo-fence sent to the device as a fenceSet command: state `set`, then `issued` on the device’s ok, ' +
      '`failed` on its error or no answer in time, `offline` (nothing sent) when the device is offline',
    body: fenceSetSchema,
    data: fenceDtoSchema,
  },
  close: {
    tags,
    summary: 'Remove the fence: a fenceClose command (a fence the device never kept is removed at once)',
    body: fenceRefSchema,
    data: fenceDtoSchema,
  },
  relock: {
    tags,
    summary: 'Re-lock the fence: a fenceRelock command to the device keeping it',
    body: fenceRefSchema,
    data: fenceDtoSchema,
  },
} satisfies EndpointSchemaTable;
export const fenceApi = endpoints(fenceRoutes, fenceSchemas);
