import { z } from 'zod';
import { idQuerySchema } from '../admin.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { deviceDataRoutes } from '../routes/devicedata.js';
import { TELEMETRY_BATCH_MAX, UPLINK_KINDS, deviceLogDtoSchema, deviceLogQuerySchema, latestValueSchema, uplinkResultSchema } from '../protocol.js';

/** The schemas of `deviceDataRoutes` (routes/devicedata.ts). */
export const deviceDataSchemas = {
  ingest: {
    tags: ['device protocol'],
    summary: 'HTTP uplink of a device: the same messages as MQTT; answers the commands waiting for it',
    params: z.object({ kind: z.enum(UPLINK_KINDS) }),
    /** A message object, or for telemetry an array of samples (a batch, docs/PROTOCOL.md). */
    body: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(TELEMETRY_BATCH_MAX)]),
    data: uplinkResultSchema,
  },
  latest: {
    tags: ['devices'],
    summary: 'The newest value of each parameter of a device',
    query: idQuerySchema,
    data: z.array(latestValueSchema),
  },
  logs: {
    tags: ['logs'],
    summary: 'Device log: connections, state changes, rejected messages with their reason, device alarms, acknowledgements',
    query: deviceLogQuerySchema,
    data: pageOf(deviceLogDtoSchema),
  },
} satisfies EndpointSchemaTable;
export const deviceDataApi = endpoints(deviceDataRoutes, deviceDataSchemas);
