import { z } from 'zod';
import { idNumberSchema } from './envelope.js';
import { COMMAND_STATUSES } from './protocol.js';
import { ALARM_EVENTS, alarmDtoSchema } from './alarms.js';
import { LiveType, MAX_LIVE_REQUEST_IDS } from './live-channel.js';

export const liveClientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal(LiveType.LOGIN),
    userId: z.number().int(),
    token: z.string().min(1),
    timestamp: z.number(),
  }),
  z.object({ type: z.literal(LiveType.HEARTBEAT), timestamp: z.number() }),
  z.object({
    type: z.literal(LiveType.SUBSCRIBE_DEVICES),
    deviceIds: z.array(idNumberSchema).max(MAX_LIVE_REQUEST_IDS),
  }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal(LiveType.LOGIN_OK), userId: z.number().int(), timestamp: z.number() }),
  z.object({ type: z.literal(LiveType.HEARTBEAT_ACK), timestamp: z.number() }),
  z.object({
    type: z.literal(LiveType.SESSION_ENDED),
    code: z.number().int(),
    reason: z.string(),
    timestamp: z.number(),
  }),
  z.object({ type: z.literal(LiveType.MENUS_CHANGED), timestamp: z.number() }),
  z.object({ type: z.literal(LiveType.DEVICES_SUBSCRIBED), deviceIds: z.array(z.number().int()) }),
  z.object({ type: z.literal(LiveType.DEVICES_REVOKED), deviceIds: z.array(z.number().int()) }),
  z.object({
    type: z.literal(LiveType.DEVICE_VALUES),
    deviceId: z.number().int(),
    /** Device time of the newest values. */
    ts: z.string(),
    /** The values that changed since the last push, keyed by semaphore id. */
    values: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  }),
  z.object({
    type: z.literal(LiveType.DEVICE_STATUS),
    deviceId: z.number().int(),
    online: z.boolean(),
    at: z.string(),
  }),
  z.object({
    type: z.literal(LiveType.DEVICE_COMMAND),
    deviceId: z.number().int(),
    id: z.string(),
    kind: z.string(),
    status: z.enum(COMMAND_STATUSES),
    message: z.string(),
    progress: z.number().nullable(),
  }),
  z.object({
    type: z.literal(LiveType.ALARMS),
    event: z.enum(ALARM_EVENTS),
    alarms: z.array(alarmDtoSchema),
  }),
  z.object({ type: z.literal(LiveType.HOME_CHANGED), timestamp: z.number() }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;
