import { z } from 'zod';
import { ALARM_LEVELS, DEVICE_LOG_KINDS } from './enums.js';
import { afterQuerySchema, idSchema, isoDateTimeSchema, pageQuerySchema } from './envelope.js';
import { PROTOCOL_LIMITS } from './limits.js';

/**
 * The device protocol (docs/PROTOCOL.md): what devices send over MQTT (`dev/<sn>/<kind>`) or HTTP
 * (`POST /api/v1/ingest/<kind>`), and the records the console keeps of it.
 */
export const TOPIC_ROOT = 'dev';

/** Uplink message kinds: one topic per device and kind (`time` asks for the server's clock). */
export const UPLINK_KINDS = ['telemetry', 'gps', 'alarm', 'status', 'ack', 'time'] as const;
export type UplinkKind = (typeof UPLINK_KINDS)[number];

/** The downlink topic a device subscribes to for commands. */
export const DOWNLINK_KIND = 'cmd';
/** The downlink topic of the console's replies: why a message was refused, the server's time. */
export const REPLY_KIND = 'reply';

export function deviceTopic(sn: string, kind: UplinkKind | typeof DOWNLINK_KIND | typeof REPLY_KIND): string {
  return `${TOPIC_ROOT}/${sn}/${kind}`;
}

/** `dev/<sn>/<kind>` → its parts, or undefined for any other topic. */
export function parseDeviceTopic(topic: string): { sn: string; kind: string } | undefined {
  const parts = topic.split('/');
  if (parts.length !== 3 || parts[0] !== TOPIC_ROOT || !parts[1]) return undefined;
  return { sn: parts[1], kind: parts[2]! };
}

/**
 * The MQTT client ids a device may use: its SN, or its SN, `@` and a suffix of its own (`BMU-0001`,
 * `BMU-0001@cmd`). `@` is not a character of SNs, so no device's client id is another's.
 */
export function isOwnClientId(sn: string, clientId: string): boolean {
  return clientId === sn || (clientId.startsWith(`${sn}@`) && clientId.length > sn.length + 1 && clientId.length <= sn.length + 1 + 32);
}

/**
 * A device timestamp: epoch milliseconds, epoch seconds (10 digits, as §9 reads them) or an ISO
 * 8601 string. Absent: the time the server received the message.
 */
export const deviceTimeSchema = z.union([z.number().finite().nonnegative(), z.string().min(1).max(40)]);

/** A parameter value as devices send it; checked against the type's definition on arrival. */
export const paramValueSchema = z.union([z.number(), z.string().max(PROTOCOL_LIMITS.textValue), z.boolean()]);

/**
 * A gateway's message for one of its registered sub-devices names that device's SN (`sn`); without
 * it, or with the sender's own SN, the message is the sender's.
 */
const childSnSchema = z.string().min(1).max(64).optional();

/**
 * One telemetry sample. A telemetry message is one sample, or an array of 1 to
 * TELEMETRY_BATCH_MAX samples (a backlog), each checked alone.
 */
export const telemetrySchema = z.object({
  ts: deviceTimeSchema.optional(),
  /** Values keyed by semaphore id, e.g. {"01111001": 52.4}. */
  values: z.record(z.string().max(32), z.unknown()),
  sn: childSnSchema,
});
export type TelemetryMessage = z.infer<typeof telemetrySchema>;

/** Samples one telemetry message may carry. */
export const TELEMETRY_BATCH_MAX = 1000;

export const gpsSchema = z.object({
  ts: deviceTimeSchema.optional(),
  lng: z.number().min(-180).max(180),
  lat: z.number().min(-90).max(90),
  /** km/h */
  speed: z.number().min(0).max(2000).optional(),
  /** Degrees clockwise from north. */
  direction: z.number().min(0).max(360).optional(),
  pdop: z.number().min(0).max(100).optional(),
  satellites: z.number().int().min(0).max(255).optional(),
  sn: childSnSchema,
});
export type GpsMessage = z.infer<typeof gpsSchema>;

/** A device-raised alarm: flag 1 starts it, 0 ends it (the field's alarmFlag convention). */
export const deviceAlarmSchema = z.object({
  ts: deviceTimeSchema.optional(),
  id: z.string().min(1).max(32),
  flag: z.union([z.literal(0), z.literal(1)]),
  value: paramValueSchema.optional(),
  /**
   * The device's own judgement of the alarm's level (1–4, 4 the most severe, as GB/T 32960
   * terminals report theirs): used when the type has no alarm rule on `id`.
   */
  level: z.union(ALARM_LEVELS.map((l) => z.literal(l))).optional(),
  sn: childSnSchema,
});
export type DeviceAlarmMessage = z.infer<typeof deviceAlarmSchema>;

/** Connection state as the device reports it; `{"online": false}` is the usual last will. */
export const statusSchema = z.object({
  ts: deviceTimeSchema.optional(),
  online: z.boolean(),
  /** Free fields the console shows as they are (firmware, signal…). */
  info: z.record(z.string().max(32), z.union([z.string().max(128), z.number(), z.boolean()])).optional(),
  sn: childSnSchema,
});
export type StatusMessage = z.infer<typeof statusSchema>;

/** A device asks for the server's time (`dev/<sn>/time`); `id` comes back in the reply. */
export const timeRequestSchema = z.object({ id: z.string().max(64).optional() });
export type TimeRequest = z.infer<typeof timeRequestSchema>;

/**
 * What the console publishes on `dev/<sn>/reply` (QoS 0) to a device listening there: the server's
 * time asked for, or why a message of the device was refused in whole or in part.
 */
export type Reply =
  | { kind: 'time'; id?: string; serverTime: number }
  | { kind: 'rejected'; topic: string; problems: Omit<RejectedValue, 'value'>[] };

export const COMMAND_RESULTS = ['ok', 'error', 'progress'] as const;
export const ackSchema = z.object({
  id: z.string().min(1).max(64),
  result: z.enum(COMMAND_RESULTS),
  message: z.string().max(256).optional(),
  /** 0–100, with result "progress" for long work (firmware upgrades). */
  progress: z.number().min(0).max(100).optional(),
});
export type AckMessage = z.infer<typeof ackSchema>;

/** The downlink envelope as stored and sent; its payload per kind is in commands.ts (commandEnvelopeSchema). */
export const commandSchema = z.object({
  id: z.string(),
  kind: z.string(),
  payload: z.unknown(),
  /** Epoch ms after which the device must not act on it. */
  expiresAt: z.number(),
});
export type Command = z.infer<typeof commandSchema>;

/**
 * Life of a command: pending → sent → succeeded | failed, or timeout when it expires first.
 * `offline`: the device was offline when the operator sent it, so it was not queued (set
 * parameters want an answer now, not whenever the device comes back).
 */
export const COMMAND_STATUSES = ['pending', 'sent', 'succeeded', 'failed', 'timeout', 'offline'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** Why a message or one value of it was dropped (device log `reason`). */
export const INGEST_REASONS = [
  'unknownDevice',
  'badCredentials',
  'deviceDisabled',
  'foreignTopic',
  'unknownKind',
  'malformedJson',
  'invalidMessage',
  'unknownParameter',
  'wrongType',
  'outOfRange',
  'notInEnum',
  'timeOutOfRange',
  'rateLimited',
  'unsupportedProtocol',
  'foreignClientId',
  'tooLarge',
  /** A gateway's message for an SN that is not one of its registered sub-devices. */
  'notSubDevice',
  /** Refused by the database when written alone (the rest of its batch was stored). */
  'notStored',
] as const;
export type IngestReason = (typeof INGEST_REASONS)[number];

/**
 * One dropped value (or message field) and why: in the HTTP uplink's answer (without `value`) and
 * in a `rejected` device log row's `detail.problems` (at most 20, each `value` as sent, text cut
 * at 64 characters, objects as `"[object]"`).
 */
export const rejectedValueSchema = z.object({
  reason: z.enum(INGEST_REASONS),
  /** The sample's index in a batch (an array of telemetry samples). */
  sample: z.number().int().optional(),
  /** The sub-device a gateway's message was for. */
  sn: z.string().optional(),
  semaphoreId: z.string().optional(),
  /** The message field at fault (invalidMessage). */
  field: z.string().optional(),
  value: z.unknown().optional(),
});
export type RejectedValue = z.infer<typeof rejectedValueSchema>;

export const deviceLogDtoSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int().nullable(),
  sn: z.string(),
  deviceName: z.string().nullable(),
  kind: z.enum(DEVICE_LOG_KINDS),
  reason: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type DeviceLogDto = z.infer<typeof deviceLogDtoSchema>;

export const deviceLogQuerySchema = pageQuerySchema.extend({
  deviceId: idSchema.optional(),
  sn: z.string().trim().max(64).optional(),
  kind: z.enum(DEVICE_LOG_KINDS).optional(),
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
  after: afterQuerySchema,
});
export type DeviceLogQuery = z.infer<typeof deviceLogQuerySchema>;

/** Latest value of one parameter of a device. */
export const latestValueSchema = z.object({
  semaphoreId: z.string(),
  value: paramValueSchema,
  ts: z.string(),
});
export type LatestValue = z.infer<typeof latestValueSchema>;

/** The answer to an HTTP uplink: what the server did, and the commands waiting for the device. */
export const uplinkResultSchema = z.object({
  accepted: z.number().int(),
  rejected: z.array(rejectedValueSchema.omit({ value: true })),
  commands: z.array(commandSchema),
  /** The server's clock (epoch ms) when it answered. */
  serverTime: z.number(),
});
export type UplinkResult = z.infer<typeof uplinkResultSchema>;
