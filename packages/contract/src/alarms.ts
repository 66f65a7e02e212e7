import { z } from 'zod';
import { afterQuerySchema, idNumberSchema, idSchema, isoDateTimeSchema, pageQuerySchema } from './envelope.js';
import { ALARM_NOTICE_CHANNELS, ALARM_NOTICE_REASONS, ALARM_NOTICE_STATES, ALARM_SOURCES, ALARM_STATES } from './enums.js';
import { ALARM_BULK_MAX, ALARM_NOTE_MAX } from './limits.js';

/**
 * Alarms (§3 Alarm, §4 alarm levels and states): one record per alarm, from a device type's rule
 * (the engine, with hold durations) or raised by the device itself (`dev/<sn>/alarm`). An alarm is
 * active until it ends (ended_at); its handling state is independent of that.
 */
const level = z.coerce.number().int().min(1).max(4);

/** The filters of /project/alarminfo and the device details page (§7 /device/alarmlist). */
export const alarmFilterSchema = z.object({
  /** One alarm (the link of the bell, the notification and the alarm e-mail). */
  alarmId: idSchema.optional(),
  projectId: idSchema.optional(),
  deviceId: idSchema.optional(),
  typeId: idSchema.optional(),
  /** SN or device name, prefix or part. */
  device: z.string().trim().max(64).optional(),
  level: level.optional(),
  state: z.enum(ALARM_STATES).optional(),
  /** `active`: not ended yet; `ended`: ended. */
  activity: z.enum(['active', 'ended']).optional(),
  /** Started at or after … */
  from: isoDateTimeSchema.optional(),
  /** … and before. */
  to: isoDateTimeSchema.optional(),
});

export const ALARM_SORTS = ['startedAt', 'level', 'endedAt', 'processedAt', 'device'] as const;
export const alarmListQuerySchema = pageQuerySchema.merge(alarmFilterSchema).extend({
  sort: z.enum(ALARM_SORTS).default('startedAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  after: afterQuerySchema,
});
export type AlarmListQuery = z.input<typeof alarmListQuerySchema>;

export const alarmDtoSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  deviceName: z.string(),
  sn: z.string(),
  projectId: z.number().int().nullable(),
  projectName: z.string().nullable(),
  typeId: z.number().int(),
  source: z.enum(ALARM_SOURCES),
  semaphoreId: z.string(),
  /** The parameter's name (in the four languages, as the device type names it). */
  name: z.string(),
  nameEn: z.string(),
  nameEs: z.string(),
  nameJa: z.string(),
  /** The rule's message in the four languages (empty for a device alarm without a rule). */
  message: z.string(),
  messageEn: z.string(),
  messageEs: z.string(),
  messageJa: z.string(),
  /** The value that started the alarm, as text. */
  value: z.string(),
  level: z.number().int(),
  /** Warning date: device time the alarm started. */
  startedAt: z.string(),
  /** Reporting time: when the console recorded it. */
  reportedAt: z.string(),
  endedAt: z.string().nullable(),
  state: z.enum(ALARM_STATES),
  processedAt: z.string().nullable(),
  processedBy: z.string().nullable(),
  note: z.string(),
}).meta({ id: 'Alarm' });
export type AlarmDto = z.infer<typeof alarmDtoSchema>;

export const alarmProcessSchema = z.object({
  ids: z.array(idNumberSchema).min(1, 'please select alarms').max(ALARM_BULK_MAX),
  state: z.enum(['processed', 'ignored']),
  note: z.string().trim().max(ALARM_NOTE_MAX).default(''),
});
export type AlarmProcess = z.input<typeof alarmProcessSchema>;

/** Counts for the device details page (§7 /device/alarmgroupinfo) and the page's header. */
export const alarmGroupSchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  byLevel: z.array(z.object({ level: z.number().int(), count: z.number().int() })),
  byState: z.array(z.object({ state: z.enum(ALARM_STATES), count: z.number().int() })),
}).meta({ id: 'AlarmGroup' });
export type AlarmGroup = z.infer<typeof alarmGroupSchema>;

/** The navbar bell: untreated alarms the user may see and the newest ones. */
export const alarmBellSchema = z.object({
  untreated: z.number().int(),
  latest: z.array(alarmDtoSchema),
}).meta({ id: 'AlarmBell' });
export type AlarmBell = z.infer<typeof alarmBellSchema>;

/** What the live channel pushes when an alarm starts, ends or is processed. */
export const ALARM_EVENTS = ['started', 'ended', 'processed'] as const;
export type AlarmEvent = (typeof ALARM_EVENTS)[number];

/** GET /device/alarmnotices: the SMS and calls of one alarm the caller may see. */
export const alarmNoticeQuerySchema = z.object({ alarmId: idSchema });

/**
 * One SMS or voice call of an alarm (its history): to whom (the device's alarm phone or a user's
 * contact number, masked), where it stands and every attempt with the provider's answer.
 */
export const alarmNoticeSchema = z.object({
  id: z.number().int(),
  channel: z.enum(ALARM_NOTICE_CHANNELS),
  recipient: z.enum(['device', 'user']),
  /** The user's name for a user's number. */
  username: z.string().nullable(),
  /** The number with its middle digits hidden (138****5678). */
  phone: z.string(),
  state: z.enum(ALARM_NOTICE_STATES),
  attempts: z.number().int(),
  provider: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** The next attempt of a pending notice. */
  nextAt: z.string().nullable(),
  /** Every attempt; `reason` on a refusal for good, after which the notice is not tried again. */
  tries: z.array(
    z.object({ at: z.string(), ok: z.boolean(), code: z.string(), message: z.string(), reason: z.enum(ALARM_NOTICE_REASONS).optional() }),
  ),
}).meta({ id: 'AlarmNotice' });
export type AlarmNoticeDto = z.infer<typeof alarmNoticeSchema>;
