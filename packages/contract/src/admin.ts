import { z } from 'zod';
import { ALARM_LEVELS, DASHBOARD_STYLES, JUMP_TYPES, LANGUAGES, LOGIN_RESULTS, MENU_TYPES } from './enums.js';
import { editOf } from './edit.js';
import { afterQuerySchema, idNumberSchema, idSchema, int4QuerySchema, isoDateTimeSchema, pageQuerySchema } from './envelope.js';
import { ACL_LIMITS, PASSWORD_MAX, PASSWORD_MIN, PASSWORD_MIN_MESSAGE, PATTERNS, USER_LIMITS, USER_PREFERENCE_LIMITS } from './limits.js';
import { menuUrlProblem } from './menu-rules.js';

/**
 * Access-control administration (§2 /sys/*, /user/agent; §3; §7 user, menu, permission, role,
 * logs). Lists are server-paged; `sort` names a column and `order` its direction.
 */

const id = idSchema;
export const idQuerySchema = z.object({ id });
const order = z.enum(['asc', 'desc']).default('desc');
const boolQuery = z.enum(['true', 'false']).transform((v) => v === 'true');
const trimmed = (max: number, message: string) => z.string().trim().min(1, message).max(max);
const optionalText = (max: number) => z.string().trim().max(max).default('');

// ---------------------------------------------------------------- users

/** The three user screens over one API: administrators (type 0), companies (type 1), own sub-users. */
export const USER_KINDS = ['admin', 'user', 'agent'] as const;
export type UserKind = (typeof USER_KINDS)[number];

export const userListQuerySchema = pageQuerySchema.extend({
  kind: z.enum(USER_KINDS).default('agent'),
  username: z.string().trim().max(64).optional(),
  roleId: id.optional(),
  parentId: id.optional(),
  enabled: boolQuery.optional(),
  sort: z.enum(['createdAt', 'username', 'id']).default('createdAt'),
  order,
});
export type UserListQuery = z.input<typeof userListQuerySchema>;

export const userDtoSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  type: z.number().int(),
  roleId: z.number().int(),
  roleName: z.string(),
  roleIdentification: z.string(),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  corporateName: z.string(),
  corporateAddress: z.string(),
  contactNumber: z.string(),
  dashboardStyle: z.enum(DASHBOARD_STYLES),
  language: z.enum(LANGUAGES),
  enabled: z.boolean(),
  /** Locked by the failed-login rule right now. */
  locked: z.boolean(),
  createdAt: z.string(),
}).meta({ id: 'User' });
export type UserDto = z.infer<typeof userDtoSchema>;

/** What a user is, apart from its name and password: the fields an edit may send. */
export const userFieldsSchema = z.object({
  type: z.union([z.literal(0), z.literal(1)]),
  roleId: id,
  parentId: id.optional(),
  corporateName: optionalText(USER_LIMITS.corporateName),
  corporateAddress: optionalText(USER_LIMITS.corporateAddress),
  contactNumber: z
    .string()
    .trim()
    .max(USER_LIMITS.contactNumber)
    .regex(PATTERNS.phone, 'digits, spaces and + - ( ) only')
    .default(''),
  dashboardStyle: z.enum(DASHBOARD_STYLES).default('default'),
  language: z.enum(LANGUAGES).default('en'),
  enabled: z.boolean().default(true),
});

export const userCreateSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'please enter the user name')
    .max(USER_LIMITS.username)
    .regex(PATTERNS.username, 'letters, digits and _ . @ - only'),
  password: z.string().min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE).max(PASSWORD_MAX),
  ...userFieldsSchema.shape,
});
export type UserCreate = z.input<typeof userCreateSchema>;

/** `id` and any subset of the user's fields; only those sent change (name and password do not). */
export const userEditSchema = editOf(userFieldsSchema).extend({ id });
export type UserEdit = z.input<typeof userEditSchema>;

const alarmLevel = z.union(ALARM_LEVELS.map((l) => z.literal(l)));

/**
 * The caller's own profile (POST /user/preferences): any subset of language, dashboard style,
 * company details, introduction and alarm notifications, validated as on the user screens.
 */
export const preferencesSchema = editOf(
  userFieldsSchema
    .pick({ language: true, dashboardStyle: true, corporateName: true, corporateAddress: true, contactNumber: true })
    .extend({
      introduction: optionalText(USER_LIMITS.introduction),
      alarmMail: z.boolean().default(false),
      /** Alarms of this level and above pop up in the console (levels ascend with severity). */
      alarmPopupLevel: alarmLevel,
      /** Alarms of this level and above are mailed to the user. */
      alarmMailLevel: alarmLevel,
      /** Alarms of this level and above are sent to the user's contact number by SMS / call; null: none. */
      alarmSmsLevel: alarmLevel.nullable(),
      alarmCallLevel: alarmLevel.nullable(),
    }),
).strict();
export type Preferences = z.output<typeof preferencesSchema>;

/**
 * The key of a stored screen setting: `table:<table id>` (a list's column choice, see the web's
 * `DataTable`). Other kinds of setting get a prefix of their own.
 */
export const preferenceKeySchema = z
  .string()
  .regex(/^table:[a-z][A-Za-z0-9_-]{0,39}$/, 'must be table:<table id> (letters, digits, - and _)');
export const preferenceParamsSchema = z.object({ key: preferenceKeySchema });

/** A column choice: column key → shown; only the columns the user changed. */
export const columnChoiceSchema = z
  .record(z.string().regex(/^[A-Za-z0-9_.-]+$/).max(USER_PREFERENCE_LIMITS.columnKey), z.boolean())
  .refine((v) => Object.keys(v).length <= USER_PREFERENCE_LIMITS.columns, {
    message: `names at most ${USER_PREFERENCE_LIMITS.columns} columns`,
  });

/** Body of PUT /user/preferences/:key; a value's JSON is at most `USER_PREFERENCE_LIMITS.bytes`. */
export const preferenceBodySchema = z
  .object({ value: columnChoiceSchema })
  .strict()
  .superRefine((b, ctx) => {
    if (JSON.stringify(b.value).length > USER_PREFERENCE_LIMITS.bytes) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `must be at most ${USER_PREFERENCE_LIMITS.bytes} bytes` });
    }
  });

/** `data` of GET /user/preferences/:key: the stored value, null when the user never saved one. */
export const preferenceDtoSchema = z.object({ key: z.string(), value: columnChoiceSchema.nullable() });
export type PreferenceDto = z.output<typeof preferenceDtoSchema>;

export const userRepasswordSchema = z.object({
  id,
  password: z.string().min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE).max(PASSWORD_MAX),
});

export const emailAddSchema = z.object({
  userId: id,
  email: z.string().trim().toLowerCase().max(254).email('please enter a valid email address'),
});
export const emailDtoSchema = z.object({ id: z.number().int(), email: z.string(), createdAt: z.string() }).meta({ id: 'Email' });
export type EmailDto = z.infer<typeof emailDtoSchema>;

/** Options for the parent-user picker: searchable, limited. */
export const userOptionsQuerySchema = z.object({
  q: z.string().trim().max(64).default(''),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const optionSchema = z.object({ id: z.number().int(), name: z.string() });
/** A user of the caller's subtree in pickers (GET /user/options). */
export type UserOption = z.infer<typeof optionSchema>;

// ---------------------------------------------------------------- roles

export const roleListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(64).optional(),
  sort: z.enum(['createdAt', 'name', 'id']).default('id'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export const roleDtoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  identification: z.string(),
  builtin: z.boolean(),
  userCount: z.number().int(),
  /** Whether the caller may edit it (own subtree's roles; built-ins for the super administrator). */
  editable: z.boolean(),
  createdAt: z.string(),
}).meta({ id: 'Role' });
export type RoleDto = z.infer<typeof roleDtoSchema>;
const identification = z
  .string()
  .trim()
  .min(1, 'please enter the identification')
  .max(ACL_LIMITS.identification)
  .regex(PATTERNS.identification, 'letters, digits and _ : . - , starting with a letter');
export const roleCreateSchema = z.object({
  name: trimmed(ACL_LIMITS.name, 'please enter the name'),
  identification,
});
export const roleEditSchema = editOf(roleCreateSchema).extend({ id });
export const rolePermissionsSchema = z.object({ id, permissionIds: z.array(idNumberSchema).max(1000) });
export const roleOptionSchema = z.object({ id: z.number().int(), name: z.string(), identification: z.string() });

// ---------------------------------------------------------------- permissions

export const permissionListQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(64).optional(),
  identification: z.string().trim().max(64).optional(),
  menuId: id.optional(),
  sort: z.enum(['createdAt', 'name', 'identification', 'id']).default('id'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export const permissionDtoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  identification: z.string(),
  menuId: z.number().int(),
  menuName: z.string(),
  createdAt: z.string(),
}).meta({ id: 'Permission' });
export type PermissionDto = z.infer<typeof permissionDtoSchema>;
export const permissionCreateSchema = z.object({
  name: trimmed(ACL_LIMITS.name, 'please enter the name'),
  identification,
  menuId: id,
});
export const permissionEditSchema = editOf(permissionCreateSchema).extend({ id });

/** Menu → permission tree for the role editor: menus with their permissions as leaves. */
export const permissionTreeNodeSchema = z
  .object({
    key: z.string(),
    title: z.string(),
    titleEn: z.string(),
    titleEs: z.string(),
    titleJa: z.string(),
    /** Set on permission leaves. */
    permissionId: z.number().int().optional(),
    identification: z.string().optional(),
    get children(): z.ZodArray<typeof permissionTreeNodeSchema> {
      return z.array(permissionTreeNodeSchema);
    },
  })
  .meta({ id: 'PermissionTreeNode' });
export type PermissionTreeNode = z.infer<typeof permissionTreeNodeSchema>;
export const rolePermissionViewSchema = z.object({
  /** Permissions the role holds. */
  permissionIds: z.array(z.number().int()),
  /** What the caller may grant, as a tree. */
  tree: z.array(permissionTreeNodeSchema),
});

// ---------------------------------------------------------------- menus

const menuFields = z.object({
  parentId: int4QuerySchema.default(0),
  name: trimmed(ACL_LIMITS.name, 'please enter the name'),
  nameEn: optionalText(ACL_LIMITS.name),
  nameEs: optionalText(ACL_LIMITS.name),
  nameJa: optionalText(ACL_LIMITS.name),
  jumpType: z.union(JUMP_TYPES.map((v) => z.literal(v))),
  menuUrl: trimmed(ACL_LIMITS.menuUrl, 'please enter the menu url'),
  menuType: z.union(MENU_TYPES.map((v) => z.literal(v))).default(0),
  sort: z.coerce.number().int().min(0).max(ACL_LIMITS.sort).default(0),
  icon: optionalText(ACL_LIMITS.icon),
  identification,
  isShow: z.union([z.literal(0), z.literal(1)]).default(1),
});
/**
 * Checks the URL against the jump type. An edit that sends only one of the two is checked here
 * when the other is in the body too, otherwise by the server against the stored menu.
 */
const checkMenuUrl = (m: { jumpType?: number; menuUrl?: string }, ctx: z.RefinementCtx) => {
  if (m.jumpType === undefined || m.menuUrl === undefined) return;
  const problem = menuUrlProblem(m.jumpType, m.menuUrl);
  if (problem) ctx.addIssue({ code: 'custom', path: ['menuUrl'], message: problem });
};
export const menuCreateSchema = menuFields.superRefine(checkMenuUrl);
export const menuEditSchema = editOf(menuFields).extend({ id }).superRefine(checkMenuUrl);
/** The parent-menu picker's tree. */
export const menuOptionSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    nameEn: z.string(),
    nameEs: z.string(),
    nameJa: z.string(),
    get children(): z.ZodArray<typeof menuOptionSchema> {
      return z.array(menuOptionSchema);
    },
  })
  .meta({ id: 'MenuOption' });
export type MenuOption = z.infer<typeof menuOptionSchema>;

// ---------------------------------------------------------------- logs

export const operationLogQuerySchema = pageQuerySchema.extend({
  username: z.string().trim().max(64).optional(),
  action: z.string().trim().max(64).optional(),
  entity: z.string().trim().max(32).optional(),
  result: z.enum(['success', 'failure']).optional(),
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
  order,
  after: afterQuerySchema,
});
export const operationLogDtoSchema = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  username: z.string(),
  /** Identification of the acting user's role (e.g. `ADMIN`). */
  role: z.string(),
  /** That role's current name; empty when the role no longer exists. */
  roleName: z.string(),
  /** One of AUDIT_ACTIONS (older rows may hold codes since retired). */
  action: z.string(),
  entity: z.string(),
  entityId: z.string(),
  /** The changed object's name (username, role name, SN…) when the action wrote it; else empty. */
  entityName: z.string(),
  /** JSON of what changed (no secrets); for a failure `{code, message, reason?, params?, field?}`. */
  summary: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  result: z.string(),
  createdAt: z.string(),
}).meta({ id: 'OperationLog' });
export type OperationLogDto = z.infer<typeof operationLogDtoSchema>;

export const loginLogQuerySchema = pageQuerySchema.extend({
  username: z.string().trim().max(64).optional(),
  result: z.enum(LOGIN_RESULTS).optional(),
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
  order,
  after: afterQuerySchema,
});
export const loginLogDtoSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  result: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
}).meta({ id: 'LoginLog' });
export type LoginLogDto = z.infer<typeof loginLogDtoSchema>;
