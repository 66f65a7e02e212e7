import { z } from 'zod';
import { idQuerySchema } from '../admin.js';
import { pageOf } from '../envelope.js';
import { endpoint } from '../endpoint.js';
import { PUBLIC } from '../permissions.js';
import { TELEMETRY_BATCH_MAX, UPLINK_KINDS, deviceLogDtoSchema, deviceLogQuerySchema, latestValueSchema, uplinkResultSchema } from '../protocol.js';

/** Device data: the HTTP uplink (docs/PROTOCOL.md), latest values, the device log. */
export const deviceDataApi = {
  /**
   * Devices authenticate themselves (HTTP Basic: SN and secret), not with a console session; not
   * an operator's action: the device log records what devices send.
   */
  ingest: endpoint({
    method: 'POST',
    path: '/ingest/:kind',
    permission: PUBLIC,
    audit: false,
    tags: ['device protocol'],
    summary: 'HTTP uplink of a device: the same messages as MQTT; answers the commands waiting for it',
    params: z.object({ kind: z.enum(UPLINK_KINDS) }),
    /** A message object, or for telemetry an array of samples (a batch, docs/PROTOCOL.md). */
    body: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown()).max(TELEMETRY_BATCH_MAX)]),
    data: uplinkResultSchema,
  }),
  latest: endpoint({
    method: 'GET',
    path: '/device/latest',
    permission: 'device:list',
    tags: ['devices'],
    summary: 'The newest value of each parameter of a device',
    query: idQuerySchema,
    data: z.array(latestValueSchema),
  }),
  logs: endpoint({
    method: 'GET',
    path: '/logs/devicelogs',
    permission: 'log:device',
    tags: ['logs'],
    summary: 'Device log: connections, state changes, rejected messages with their reason, device alarms, acknowledgements',
    query: deviceLogQuerySchema,
    data: pageOf(deviceLogDtoSchema),
  }),
};
