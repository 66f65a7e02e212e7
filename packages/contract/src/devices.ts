import { z } from 'zod';
import { idNumberSchema, idSchema, int4QuerySchema, pageQuerySchema, INT4_MAX } from './envelope.js';
import { REFUSALS } from './refusals.js';

/**
 * Device registry (§2 /device/*, /project/*; §3 device type, project, device; §7 device type,
 * project, device). Lists are server-paged with filters and sorting.
 */

const id = idSchema;
const order = z.enum(['asc', 'desc']).default('desc');
const text = (max: number) => z.string().trim().max(max).default('');
const required = (max: number, message: string) => z.string().trim().min(1, message).max(max);

// ---------------------------------------------------------------- device types

export const PARAM_DATA_TYPES = ['number', 'integer', 'boolean', 'enum', 'text'] as const;
export type ParamDataType = (typeof PARAM_DATA_TYPES)[number];

export const ALARM_COMPARISONS = ['gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'outside', 'inside'] as const;
export type AlarmComparison = (typeof ALARM_COMPARISONS)[number];
/** Comparisons that make sense for each data type: order only for numbers. */
export const COMPARISONS_BY_TYPE: Record<ParamDataType, readonly AlarmComparison[]> = {
  number: ALARM_COMPARISONS,
  integer: ALARM_COMPARISONS,
  boolean: ['eq', 'ne'],
  enum: ['eq', 'ne'],
  text: ['eq', 'ne'],
};
/** Comparisons that need a second threshold (a range). */
export const RANGE_COMPARISONS: readonly AlarmComparison[] = ['outside', 'inside'];

export const deviceTypeListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(64).optional(),
  code: z.string().trim().max(32).optional(),
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
});
export type DeviceTypeDto = z.infer<typeof deviceTypeDtoSchema>;
export const deviceTypeCreateSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, 'please enter the type code')
    .max(32)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits and _ . - only'),
  name: required(64, 'please enter the name'),
  nameEn: text(64),
  nameEs: text(64),
  nameJa: text(64),
  remarks: text(500),
  recordTrack: z.boolean().default(false),
});
export const deviceTypeEditSchema = deviceTypeCreateSchema.extend({ id });

export const enumOptionSchema = z.object({
  value: z.string().trim().min(1).max(32),
  label: z.string().trim().min(1).max(64),
  labelEn: text(64),
  labelEs: text(64),
  labelJa: text(64),
});

export const paramSchema = z
  .object({
    /** Key in device messages, e.g. an 8-digit string. */
    semaphoreId: z
      .string()
      .trim()
      .min(1, 'please enter the semaphore id')
      .max(32)
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits and _ . - only'),
    name: required(64, 'please enter the name'),
    nameEn: text(64),
    nameEs: text(64),
    nameJa: text(64),
    unit: text(16),
    groupName: text(32),
    dataType: z.enum(PARAM_DATA_TYPES),
    precision: z.number().int().min(0).max(6).default(0),
    min: z.number().finite().nullable().default(null),
    max: z.number().finite().nullable().default(null),
    enumValues: z.array(enumOptionSchema).max(64).default([]),
    writable: z.boolean().default(false),
    sort: z.number().int().min(0).max(100000).default(0),
  })
  .superRefine((p, ctx) => {
    if (p.min !== null && p.max !== null && p.min > p.max) {
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'max must not be below min' });
    }
    if (p.dataType === 'enum' && p.enumValues.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['enumValues'], message: 'an enum needs at least one value' });
    }
    if (new Set(p.enumValues.map((v) => v.value)).size !== p.enumValues.length) {
      ctx.addIssue({ code: 'custom', path: ['enumValues'], message: 'enum values must be unique' });
    }
  });
export type ParamInput = z.input<typeof paramSchema>;
export type Param = z.output<typeof paramSchema>;
export const paramDtoSchema = z.object({ id: z.number().int() }).and(
  z.object({
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
  }),
);
export type ParamDto = z.infer<typeof paramDtoSchema>;
/** Replaces the whole parameter list of a type (the settings page saves it at once). */
export const setParamsSchema = z.object({ id, params: z.array(paramSchema).max(500) });

export const alarmRuleSchema = z.object({
  semaphoreId: z.string().trim().min(1, 'please select the parameter').max(32),
  comparison: z.enum(ALARM_COMPARISONS),
  threshold: z.union([z.number().finite(), z.string().max(64)]),
  threshold2: z.number().finite().nullable().default(null),
  level: z.number().int().min(1).max(4),
  message: required(128, 'please enter the message'),
  messageEn: text(128),
  messageEs: text(128),
  messageJa: text(128),
  /** Seconds the condition must hold before it alarms. */
  holdSeconds: z.number().int().min(0).max(86400).default(0),
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
});
export type AlarmRuleDto = z.infer<typeof alarmRuleDtoSchema>;
export const setAlarmsSchema = z.object({ id, rules: z.array(alarmRuleSchema).max(500) });

// ---------------------------------------------------------------- projects

const lng = z.number().min(-180, 'longitude is -180…180').max(180, 'longitude is -180…180');
const lat = z.number().min(-90, 'latitude is -90…90').max(90, 'latitude is -90…90');
const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const projectListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(64).optional(),
  ownerId: id.optional(),
  sort: z.enum(['createdAt', 'name', 'id']).default('createdAt'),
  order,
});
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
});
export type ProjectDto = z.infer<typeof projectDtoSchema>;
export const projectCreateSchema = z.object({
  name: required(64, 'please enter the name'),
  remarks: text(500),
  address: text(256),
  lng: lng.nullable().default(null),
  lat: lat.nullable().default(null),
  weather: z.boolean().default(false),
  map: z.boolean().default(true),
  /** Defaults to the caller; must be in the caller's subtree. */
  ownerId: id.optional(),
});
export const projectEditSchema = projectCreateSchema.extend({ id });
export const projectDeleteQuerySchema = z.object({
  id,
  /** Where the project's devices go: another project id, or 0 to leave them without a project. */
  moveTo: int4QuerySchema.optional(),
});

export const roadSectionSchema = z.object({
  projectId: id,
  name: required(64, 'please enter the name'),
  description: text(500),
  /** Ordered points of the line, [lng, lat]. */
  points: z.array(z.tuple([lng, lat])).max(5000).default([]),
  sort: z.number().int().min(0).max(100000).default(0),
});
export const roadSectionEditSchema = roadSectionSchema.omit({ projectId: true }).extend({ id });
export const roadSectionDtoSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  name: z.string(),
  description: z.string(),
  points: z.array(z.tuple([z.number(), z.number()])),
  sort: z.number().int(),
  createdAt: z.string(),
});
export const roadSectionListQuerySchema = pageQuerySchema.extend({ projectId: id });

export const projectUsersQuerySchema = z.object({ id });
export const projectUsersSetSchema = z.object({ id, userIds: z.array(idNumberSchema).max(1000) });
export const projectUserSchema = z.object({ id: z.number().int(), username: z.string(), corporateName: z.string() });

// ---------------------------------------------------------------- devices

/**
 * How a device is placed on maps: 0 at the position it reports (GPS), 1 at the fixed lng/lat
 * entered here, 2 not shown on maps.
 */
export const MAP_MODES = [0, 1, 2] as const;

export const deviceListQuerySchema = pageQuerySchema.extend({
  projectId: id.optional(),
  typeId: id.optional(),
  online: boolQuery.optional(),
  warningLevel: z.coerce.number().int().min(0).max(4).optional(),
  /** Free text over name, SN, IMEI and SIM number. */
  q: z.string().trim().max(64).optional(),
  parentId: id.optional(),
  sort: z.enum(['createdAt', 'updatedAt', 'name', 'sn', 'lastSeenAt', 'warningLevel', 'id']).default('createdAt'),
  order,
});
export type DeviceListQuery = z.input<typeof deviceListQuerySchema>;

const digits = (max: number, message: string) => z.string().trim().max(max).regex(/^\d*$/, message).default('');
export const deviceFieldsSchema = z.object({
  name: required(64, 'please enter the device name'),
  sn: z
    .string()
    .trim()
    .min(1, 'please enter the device code')
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only'),
  typeId: id,
  projectId: id.nullable().default(null),
  parentId: id.nullable().default(null),
  address: text(256),
  mapMode: z.union(MAP_MODES.map((m) => z.literal(m))).default(0),
  lng: lng.nullable().default(null),
  lat: lat.nullable().default(null),
  remarks: text(500),
  alarmPhone: z.string().trim().max(32).regex(/^[0-9+\-() ,]*$/, 'digits, spaces and + - ( ) , only').default(''),
  warningLevel: z.number().int().min(0).max(4).default(0),
  btCode: text(64),
  version4g: text(64),
  hardwareVersion: text(64),
  simNumber: digits(24, 'digits only'),
  imei: digits(17, 'digits only'),
  manufacturerModel: text(64),
  description: text(1000),
});
export type DeviceFields = z.input<typeof deviceFieldsSchema>;
export const deviceEditSchema = deviceFieldsSchema.extend({ id });
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
  warningLevel: z.number().int(),
  btCode: z.string(),
  version4g: z.string(),
  hardwareVersion: z.string(),
  simNumber: z.string(),
  imei: z.string(),
  manufacturerModel: z.string(),
  description: z.string(),
  online: z.boolean(),
  lastSeenAt: z.string().nullable(),
  subCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
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
export const deviceCredentialSchema = z.object({ sn: z.string(), secret: z.string() });

// ---------------------------------------------------------------- bulk import and export

/** Columns of the device spreadsheet, in order; headers are accepted in any of the 4 languages. */
export const DEVICE_SHEET_COLUMNS = [
  { key: 'name', required: true, zh: '设备名称', en: 'Device name', es: 'Nombre del dispositivo', ja: 'デバイス名' },
  { key: 'sn', required: true, zh: '设备编码', en: 'Device code (SN)', es: 'Código del dispositivo (SN)', ja: 'デバイスコード (SN)' },
  { key: 'type', required: true, zh: '设备类型编码', en: 'Type code', es: 'Código de tipo', ja: 'タイプコード' },
  { key: 'project', required: false, zh: '项目名称', en: 'Project', es: 'Proyecto', ja: 'プロジェクト' },
  { key: 'address', required: false, zh: '地址', en: 'Address', es: 'Dirección', ja: '住所' },
  { key: 'lng', required: false, zh: '经度', en: 'Longitude', es: 'Longitud', ja: '経度' },
  { key: 'lat', required: false, zh: '纬度', en: 'Latitude', es: 'Latitud', ja: '緯度' },
  { key: 'alarmPhone', required: false, zh: '告警电话', en: 'Alarm phone', es: 'Teléfono de alarma', ja: 'アラーム電話' },
  { key: 'warningLevel', required: false, zh: '告警等级', en: 'Warning level', es: 'Nivel de aviso', ja: '警告レベル' },
  { key: 'btCode', required: false, zh: '蓝牙编码', en: 'BT code', es: 'Código BT', ja: 'BTコード' },
  { key: 'version4g', required: false, zh: '4G版本', en: '4G version', es: 'Versión 4G', ja: '4Gバージョン' },
  { key: 'hardwareVersion', required: false, zh: '硬件版本', en: 'Hardware version', es: 'Versión de hardware', ja: 'ハードウェアバージョン' },
  { key: 'simNumber', required: false, zh: 'SIM卡号', en: 'SIM number', es: 'Número SIM', ja: 'SIM番号' },
  { key: 'imei', required: false, zh: '模块号(IMEI)', en: 'Module (IMEI)', es: 'Módulo (IMEI)', ja: 'モジュール (IMEI)' },
  { key: 'manufacturerModel', required: false, zh: '厂家型号', en: 'Manufacturer model', es: 'Modelo del fabricante', ja: 'メーカー型番' },
  { key: 'remarks', required: false, zh: '备注', en: 'Remarks', es: 'Observaciones', ja: '備考' },
  { key: 'description', required: false, zh: '描述', en: 'Description', es: 'Descripción', ja: '説明' },
] as const;
export type DeviceSheetKey = (typeof DEVICE_SHEET_COLUMNS)[number]['key'];

export const IMPORT_MODES = ['all', 'valid'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
/** §5: the message for a file that is not .xlsx/.xls. */
export const IMPORT_FORMAT_MESSAGE = REFUSALS.importFormat;
export const IMPORT_MAX_ROWS = 20_000;

export const importErrorSchema = z.object({
  /** Spreadsheet row number (the header is row 1). */
  row: z.number().int(),
  /** Column key (see DEVICE_SHEET_COLUMNS), or empty for the whole row. */
  column: z.string(),
  reason: z.string(),
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
});
export type ImportReport = z.infer<typeof importReportSchema>;
export const templateQuerySchema = z.object({ lang: z.enum(['zh', 'en', 'es', 'ja']).default('en') });
