import { z } from 'zod';
import { editOf } from './edit.js';
import { MAP_MODES } from './enums.js';
import { afterQuerySchema, idNumberSchema, idSchema, int4QuerySchema, pageQuerySchema, INT4_MAX } from './envelope.js';
import { ALARM_COMPARISONS, PARAM_DATA_TYPES, paramProblems } from './devicetype-rules.js';
import { ALARM_LIMITS, DEVICE_LIMITS, DEVICE_TYPE_LIMITS, PARAM_LIMITS, PATTERNS, PROJECT_LIMITS } from './limits.js';
import { REFUSAL_REASONS, REFUSALS, refusalMessage } from './refusals.js';

/**
 * Device registry (§2 /device/*, /project/*; §3 device type, project, device; §7 device type,
 * project, device). Lists are server-paged with filters and sorting.
 */

const id = idSchema;
const order = z.enum(['asc', 'desc']).default('desc');
const text = (max: number) => z.string().trim().max(max).default('');
const required = (max: number, message: string) => z.string().trim().min(1, message).max(max);

// ---------------------------------------------------------------- device types

// Data types, comparisons and the checks that depend on them: devicetype-rules.ts.

export const deviceTypeListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(DEVICE_TYPE_LIMITS.name).optional(),
  code: z.string().trim().max(DEVICE_TYPE_LIMITS.code).optional(),
  sort: z.enum(['createdAt', 'name', 'code', 'id']).default('id'),
  order,
});
export const deviceTypeDtoSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  /** Chinese (always filled); the suffixed names are shown in those languages when set. */
  name: z.string(),
  nameEn: z.string(),
  nameEs: z.string(),
  nameJa: z.string(),
  remarks: z.string(),
  recordTrack: z.boolean(),
  builtin: z.boolean(),
  paramCount: z.number().int(),
  alarmCount: z.number().int(),
  createdAt: z.string(),
}).meta({ id: 'DeviceType' });
export type DeviceTypeDto = z.infer<typeof deviceTypeDtoSchema>;
/** A device type in pickers. */
export const deviceTypeOptionSchema = deviceTypeDtoSchema.pick({ id: true, code: true, name: true, nameEn: true, nameEs: true, nameJa: true });
export type DeviceTypeOption = z.infer<typeof deviceTypeOptionSchema>;
export const deviceTypeCreateSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, 'please enter the type code')
    .max(DEVICE_TYPE_LIMITS.code)
    .regex(PATTERNS.code, 'letters, digits and _ . - only'),
  name: required(DEVICE_TYPE_LIMITS.name, 'please enter the name'),
  nameEn: text(DEVICE_TYPE_LIMITS.name),
  nameEs: text(DEVICE_TYPE_LIMITS.name),
  nameJa: text(DEVICE_TYPE_LIMITS.name),
  remarks: text(DEVICE_TYPE_LIMITS.remarks),
  recordTrack: z.boolean().default(false),
});
export const deviceTypeEditSchema = editOf(deviceTypeCreateSchema).extend({ id });

export const enumOptionSchema = z.object({
  value: z.string().trim().min(1).max(PARAM_LIMITS.enumValue),
  label: z.string().trim().min(1).max(PARAM_LIMITS.enumLabel),
  labelEn: text(PARAM_LIMITS.enumLabel),
  labelEs: text(PARAM_LIMITS.enumLabel),
  labelJa: text(PARAM_LIMITS.enumLabel),
});

export const paramSchema = z
  .object({
    /** Key in device messages, e.g. an 8-digit string. */
    semaphoreId: z
      .string()
      .trim()
      .min(1, 'please enter the semaphore id')
      .max(PARAM_LIMITS.semaphoreId)
      .regex(PATTERNS.code, 'letters, digits and _ . - only'),
    name: required(PARAM_LIMITS.name, 'please enter the name'),
    nameEn: text(PARAM_LIMITS.name),
    nameEs: text(PARAM_LIMITS.name),
    nameJa: text(PARAM_LIMITS.name),
    unit: text(PARAM_LIMITS.unit),
    groupName: text(PARAM_LIMITS.groupName),
    dataType: z.enum(PARAM_DATA_TYPES),
    precision: z.number().int().min(0).max(PARAM_LIMITS.precision).default(0),
    min: z.number().finite().nullable().default(null),
    max: z.number().finite().nullable().default(null),
    enumValues: z.array(enumOptionSchema).max(PARAM_LIMITS.enumCount).default([]),
    writable: z.boolean().default(false),
    sort: z.number().int().min(0).max(PARAM_LIMITS.sort).default(0),
  })
  // What depends on other fields (min ≤ max, an enum's values): the checks the console runs.
  .superRefine((p, ctx) => {
    for (const problem of paramProblems([p])) {
      ctx.addIssue({ code: 'custom', path: [problem.field], message: refusalMessage(problem.reason, problem.params) });
    }
  });
export type ParamInput = z.input<typeof paramSchema>;
export type Param = z.output<typeof paramSchema>;
/** A stored parameter definition (what the registry answers, and the details page shows). */
export const paramDefinitionSchema = z.object({
  semaphoreId: z.string(),
  name: z.string(),
  nameEn: z.string(),
  nameEs: z.string(),
  nameJa: z.string(),
  unit: z.string(),
  groupName: z.string(),
  dataType: z.enum(PARAM_DATA_TYPES),
  precision: z.number().int(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  enumValues: z.array(enumOptionSchema),
  writable: z.boolean(),
  sort: z.number().int(),
});
export const paramDtoSchema = z.object({ id: z.number().int() }).and(paramDefinitionSchema).meta({ id: 'Param' });
export type ParamDto = z.infer<typeof paramDtoSchema>;
/** Replaces the whole parameter list of a type (the settings page saves it at once). */
export const setParamsSchema = z.object({ id, params: z.array(paramSchema).max(PARAM_LIMITS.rows) });

export const alarmRuleSchema = z.object({
  semaphoreId: z.string().trim().min(1, 'please select the parameter').max(PARAM_LIMITS.semaphoreId),
  comparison: z.enum(ALARM_COMPARISONS),
  threshold: z.union([z.number().finite(), z.string().max(ALARM_LIMITS.threshold)]),
  threshold2: z.number().finite().nullable().default(null),
  level: z.number().int().min(Math.min(...ALARM_LIMITS.levels)).max(Math.max(...ALARM_LIMITS.levels)),
  message: required(ALARM_LIMITS.message, 'please enter the message'),
  messageEn: text(ALARM_LIMITS.message),
  messageEs: text(ALARM_LIMITS.message),
  messageJa: text(ALARM_LIMITS.message),
  /** Seconds the condition must hold before it alarms. */
  holdSeconds: z.number().int().min(0).max(ALARM_LIMITS.holdSeconds).default(0),
  enabled: z.boolean().default(true),
});
export type AlarmRuleInput = z.input<typeof alarmRuleSchema>;
export type AlarmRule = z.output<typeof alarmRuleSchema>;
export const alarmRuleDtoSchema = z.object({
  id: z.number().int(),
  semaphoreId: z.string(),
  comparison: z.enum(ALARM_COMPARISONS),
  threshold: z.union([z.number(), z.string()]),
  threshold2: z.number().nullable(),
  level: z.number().int(),
  message: z.string(),
  messageEn: z.string(),
  messageEs: z.string(),
  messageJa: z.string(),
  holdSeconds: z.number().int(),
  enabled: z.boolean(),
}).meta({ id: 'AlarmRule' });
export type AlarmRuleDto = z.infer<typeof alarmRuleDtoSchema>;
export const setAlarmsSchema = z.object({ id, rules: z.array(alarmRuleSchema).max(ALARM_LIMITS.rows) });

// ---------------------------------------------------------------- projects

/** Bounds of the numeric device fields (the import report names them when a cell is outside). */
export const DEVICE_RANGES = {
  lng: { min: -180, max: 180 },
  lat: { min: -90, max: 90 },
} as const;
const lng = z.number().min(DEVICE_RANGES.lng.min, 'longitude is -180…180').max(DEVICE_RANGES.lng.max, 'longitude is -180…180');
const lat = z.number().min(DEVICE_RANGES.lat.min, 'latitude is -90…90').max(DEVICE_RANGES.lat.max, 'latitude is -90…90');
const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const projectListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(PROJECT_LIMITS.name).optional(),
  ownerId: id.optional(),
  sort: z.enum(['createdAt', 'name', 'id']).default('createdAt'),
  order,
});
/**
 * What the caller may do with one row, answered with it: the server computes it from the same
 * rule its services enforce (the row's owner line or its project owner's line, never a project
 * only shared with the caller) and the permission code of the route the action calls. The console
 * shows only these actions; the server still checks every request.
 */
export const deviceCanSchema = z.object({
  /** POST /device/edit. */
  edit: z.boolean(),
  /** POST /device/credential: a new ingestion secret. */
  secret: z.boolean(),
  /** POST /device/editdevicelistproject: to another project. */
  move: z.boolean(),
  /** POST /device/setparams: commands and parameter writes. */
  command: z.boolean(),
  /** POST /device/setfence, setclosefence, setrefence: geo-fences. */
  fence: z.boolean(),
  /** DELETE /device/delete. */
  delete: z.boolean(),
});
export type DeviceCan = z.infer<typeof deviceCanSchema>;
export const projectCanSchema = z.object({
  /** POST /project/editproject and the road sections. */
  edit: z.boolean(),
  /** DELETE /project/deleteproject. */
  delete: z.boolean(),
  /** POST /project/setuserproject: who the project is shared with. */
  users: z.boolean(),
});
export type ProjectCan = z.infer<typeof projectCanSchema>;

export const projectDtoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  remarks: z.string(),
  address: z.string(),
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  weather: z.boolean(),
  map: z.boolean(),
  ownerId: z.number().int(),
  ownerName: z.string(),
  deviceCount: z.number().int(),
  createdAt: z.string(),
  /** What the caller may do with this project: nothing but read one only shared with it. */
  can: projectCanSchema,
}).meta({ id: 'Project' });
export type ProjectDto = z.infer<typeof projectDtoSchema>;
/**
 * GET /project/weather: the forecast at a project's position (issue #39), when its weather switch
 * is on. `state`: `ok` with the forecast; `off` (the switch, or the console's WEATHER_URL=off),
 * `noPosition` (no longitude / latitude) or `unavailable` (the provider could not be reached:
 * the console works the same without it).
 */
export const WEATHER_STATES = ['ok', 'off', 'noPosition', 'unavailable'] as const;
export const projectWeatherSchema = z.object({
  state: z.enum(WEATHER_STATES),
  forecast: z
    .object({
      /** The position asked for (rounded to 0.01°: the cache's key) and when it was fetched. */
      lat: z.number(),
      lng: z.number(),
      fetchedAt: z.string(),
      current: z.object({ temperature: z.number().nullable(), weatherCode: z.number().int().nullable(), windSpeed: z.number().nullable() }),
      /** Today and the next days: WMO weather code, °C, mm. */
      daily: z.array(
        z.object({
          date: z.string(),
          weatherCode: z.number().int().nullable(),
          tempMax: z.number().nullable(),
          tempMin: z.number().nullable(),
          precipitation: z.number().nullable(),
        }),
      ),
    })
    .nullable(),
}).meta({ id: 'ProjectWeather' });
export type ProjectWeather = z.infer<typeof projectWeatherSchema>;

export const projectCreateSchema = z.object({
  name: required(PROJECT_LIMITS.name, 'please enter the name'),
  remarks: text(PROJECT_LIMITS.remarks),
  address: text(PROJECT_LIMITS.address),
  lng: lng.nullable().default(null),
  lat: lat.nullable().default(null),
  weather: z.boolean().default(false),
  map: z.boolean().default(true),
  /** Defaults to the caller; must be in the caller's subtree. */
  ownerId: id.optional(),
});
export const projectEditSchema = editOf(projectCreateSchema).extend({ id });
export const projectDeleteQuerySchema = z.object({
  id,
  /** Where the project's devices go: another project id, or 0 to leave them without a project. */
  moveTo: int4QuerySchema.optional(),
});

export const roadSectionSchema = z.object({
  projectId: id,
  name: required(PROJECT_LIMITS.name, 'please enter the name'),
  description: text(PROJECT_LIMITS.description),
  /** Ordered points of the line, [lng, lat]. */
  points: z.array(z.tuple([lng, lat])).max(PROJECT_LIMITS.points).default([]),
  sort: z.number().int().min(0).max(PROJECT_LIMITS.sort).default(0),
});
/** A road section stays in its project; any subset of the other fields. */
export const roadSectionEditSchema = editOf(roadSectionSchema.omit({ projectId: true })).extend({ id });
export const roadSectionDtoSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  name: z.string(),
  description: z.string(),
  points: z.array(z.tuple([z.number(), z.number()])),
  sort: z.number().int(),
  createdAt: z.string(),
}).meta({ id: 'RoadSection' });
export const roadSectionListQuerySchema = pageQuerySchema.extend({ projectId: id });

export const projectUsersQuerySchema = z.object({ id });
export const projectUsersSetSchema = z.object({ id, userIds: z.array(idNumberSchema).max(1000) });
export const projectUserSchema = z.object({ id: z.number().int(), username: z.string(), corporateName: z.string() });

// ---------------------------------------------------------------- devices

export const deviceListQuerySchema = pageQuerySchema.extend({
  projectId: id.optional(),
  typeId: id.optional(),
  online: boolQuery.optional(),
  /** false: only disabled devices (refused at login). */
  enabled: boolQuery.optional(),
  warningLevel: z.coerce.number().int().min(0).max(4).optional(),
  /** true: devices with an open alarm (any warning level); false: those without. */
  alarming: boolQuery.optional(),
  /** Free text over name, SN, IMEI and SIM number. */
  q: z.string().trim().max(64).optional(),
  parentId: id.optional(),
  /** Only devices without a parent (the device list; each row carries its `subCount`). */
  topLevel: boolQuery.optional(),
  sort: z.enum(['createdAt', 'updatedAt', 'name', 'sn', 'lastSeenAt', 'warningLevel', 'id']).default('createdAt'),
  order,
  after: afterQuerySchema,
});
export type DeviceListQuery = z.input<typeof deviceListQuerySchema>;

const digits = (max: number, message: string) => z.string().trim().max(max).regex(PATTERNS.digits, message).default('');
export const deviceFieldsSchema = z.object({
  name: required(DEVICE_LIMITS.name, 'please enter the device name'),
  sn: z
    .string()
    .trim()
    .min(1, 'please enter the device code')
    .max(DEVICE_LIMITS.sn)
    .regex(PATTERNS.sn, 'letters, digits and _ . : - only'),
  typeId: id,
  projectId: id.nullable().default(null),
  parentId: id.nullable().default(null),
  address: text(DEVICE_LIMITS.address),
  mapMode: z.union(MAP_MODES.map((m) => z.literal(m))).default(0),
  lng: lng.nullable().default(null),
  lat: lat.nullable().default(null),
  remarks: text(DEVICE_LIMITS.remarks),
  alarmPhone: z
    .string()
    .trim()
    .max(DEVICE_LIMITS.alarmPhone)
    .regex(PATTERNS.alarmPhones, 'digits, spaces and + - ( ) , only')
    .default(''),
  btCode: text(DEVICE_LIMITS.btCode),
  version4g: text(DEVICE_LIMITS.version4g),
  hardwareVersion: text(DEVICE_LIMITS.hardwareVersion),
  simNumber: digits(DEVICE_LIMITS.simNumber, 'digits only'),
  imei: digits(DEVICE_LIMITS.imei, 'digits only'),
  manufacturerModel: text(DEVICE_LIMITS.manufacturerModel),
  description: text(DEVICE_LIMITS.description),
  /** A disabled device is refused at login (MQTT CONNECT, HTTP uplink) and disconnected. */
  enabled: z.boolean().default(true),
  /** The device has a camera: its details open a video H5 URL from the video provider. */
  camera: z.boolean().default(false),
  /**
   * The camera on the video platform (VIDEO_PROVIDER=ezviz: the EZVIZ device serial, `:2` after
   * it for another channel than 1); empty with the simulated provider.
   */
  cameraSerial: z
    .string()
    .trim()
    .max(DEVICE_LIMITS.cameraSerial)
    .regex(/^([A-Za-z0-9_-]+(:\d{1,3})?)?$/, 'a serial of letters, digits, _ and -, optionally :channel')
    .default(''),
  // No warning level: it is the highest level of the device's active alarms, kept by the alarm
  // engine (a `warningLevel` sent here is dropped like any unknown key).
});
export type DeviceFields = z.input<typeof deviceFieldsSchema>;
export const deviceEditSchema = editOf(deviceFieldsSchema).extend({ id });

export const deviceDtoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sn: z.string(),
  typeId: z.number().int(),
  typeName: z.string(),
  typeNameEn: z.string(),
  typeNameEs: z.string(),
  typeNameJa: z.string(),
  projectId: z.number().int().nullable(),
  projectName: z.string().nullable(),
  parentId: z.number().int().nullable(),
  address: z.string(),
  mapMode: z.number().int(),
  lng: z.number().nullable(),
  lat: z.number().nullable(),
  remarks: z.string(),
  alarmPhone: z.string(),
  /** The highest level (1–4) of the device's active alarms, 0 without any; read-only. */
  warningLevel: z.number().int(),
  btCode: z.string(),
  version4g: z.string(),
  hardwareVersion: z.string(),
  simNumber: z.string(),
  imei: z.string(),
  manufacturerModel: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  online: z.boolean(),
  camera: z.boolean(),
  cameraSerial: z.string(),
  lastSeenAt: z.string().nullable(),
  /**
   * What the device last reported about itself in its status message's `info` (firmware
   * versions, signal…, docs/PROTOCOL.md), null until it reports any. Read-only.
   */
  reportedInfo: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
  subCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** What the caller may do with this device (see `deviceCanSchema`). */
  can: deviceCanSchema,
}).meta({ id: 'Device' });
export type DeviceDto = z.infer<typeof deviceDtoSchema>;
/** Ids for bulk actions, as `1,2,3` in a query or an array in a body. */
export const idsQuerySchema = z.object({
  id: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'a comma-separated list of ids')
    .max(20_000)
    .transform((s) => [...new Set(s.split(',').map(Number))])
    .refine((a) => a.length <= 1000, 'at most 1000 ids')
    .refine((a) => a.every((n) => n >= 1 && n <= INT4_MAX), `ids are 1…${INT4_MAX}`),
});
export const moveDevicesSchema = z.object({
  ids: z.array(idNumberSchema).min(1).max(1000),
  /** Target project, or null to leave them without a project. */
  projectId: idNumberSchema.nullable(),
});
export const deviceSearchQuerySchema = z.object({
  q: z.string().trim().min(1).max(64),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const deviceSearchItemSchema = z.object({ id: z.number().int(), name: z.string(), sn: z.string() });
/** The ingestion secret, shown once when (re)generated. */
export const deviceCredentialSchema = z.object({ sn: z.string(), secret: z.string() }).meta({ id: 'DeviceCredential' });

// ---------------------------------------------------------------- bulk import and export

export const IMPORT_MODES = ['all', 'valid'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
/** §5: the message for a file that is not .xlsx/.xls. */
export const IMPORT_FORMAT_MESSAGE = REFUSALS.importFormat;
/**
 * Rows one import may take: the ceiling (`IMPORT_MAX_ROWS` setting, default on PostgreSQL). On the
 * embedded PGlite the default is IMPORT_MAX_ROWS_EMBEDDED: its one connection is held by the insert,
 * and 100,000 rows hold every other request ~10 s there (bench/README.md).
 */
export const IMPORT_MAX_ROWS = 100_000;
export const IMPORT_MAX_ROWS_EMBEDDED = 20_000;

export const importErrorSchema = z.object({
  /** Spreadsheet row number (the header is row 1). */
  row: z.number().int(),
  /** Column key (see DEVICE_SHEET_COLUMNS), or empty for the whole row. */
  column: z.string(),
  /** A refusal reason (refusals.ts): the console shows `refusals:<reason>` with `params`. */
  reason: z.enum(REFUSAL_REASONS),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  /** The reason's English text with its params, for API users and logs. */
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;
export const importReportSchema = z.object({
  total: z.number().int(),
  valid: z.number().int(),
  imported: z.number().int(),
  /** all: nothing is written when any row is wrong; valid: the valid rows are written. */
  mode: z.enum(IMPORT_MODES),
  dryRun: z.boolean(),
  errors: z.array(importErrorSchema),
}).meta({ id: 'ImportReport' });
export type ImportReport = z.infer<typeof importReportSchema>;
export const templateQuerySchema = z.object({ lang: z.enum(['zh', 'en', 'es', 'ja']).default('en') });
/** POST /device/import: all-or-nothing or the valid rows; a dry run only reports. */
export const importQuerySchema = z.object({
  mode: z.enum(IMPORT_MODES).default('all'),
  dryRun: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
});
/** GET /device/export: the list filters (no paging) and the language of the headers. */
export const exportQuerySchema = deviceListQuerySchema
  .omit({ page: true, limit: true, after: true })
  .extend({ lang: templateQuerySchema.shape.lang });
