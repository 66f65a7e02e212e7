import type { OperationLogDto } from '@iot/contract';
import { permissionCodeLabel, roleLabel, roleNameLabel } from '../../lib/acl-labels';
import { ApiError, describeError } from '../../lib/http';
import i18n from '../../lib/i18n';

/**
 * Operation-log rows in words: the action's name, the acting role's name and a "field: value"
 * summary with the object's name, in the UI language. The raw row stays available to the page.
 */

/** A text of the catalogue, or undefined when the key is missing or names a group of keys. */
function text(key: string, options?: Record<string, unknown>): string | undefined {
  if (!i18n.exists(key)) return undefined;
  const value: unknown = i18n.t(key, { ...options, returnObjects: true });
  return typeof value === 'string' ? value : undefined;
}

/** The action's name in the UI language; a code the console does not know is shown as it is. */
export function actionLabel(code: string): string {
  return text(`logs:actions.${code}`) ?? code;
}

/** The object kind's name; an unknown kind as it is. */
export function entityLabel(entity: string): string {
  return text(`logs:entities.${entity}`) ?? entity;
}

/** The acting role: the built-in names translated, a deleted role by its identification. */
export function logRoleLabel(log: Pick<OperationLogDto, 'role' | 'roleName'>): string {
  return log.roleName ? roleLabel(log.role, log.roleName) : log.role;
}

/** Namespaces whose labels name an entity's fields (`<ns>:fields.<key>` or `<ns>:<key>`). */
const ENTITY_NAMESPACES: Record<string, string> = {
  user: 'users',
  role: 'roles',
  permission: 'permissions',
  menu: 'menus',
  devicetype: 'devicetypes',
  project: 'projects',
  roadsection: 'projects',
  device: 'devices',
};

/** A summary field's label: the log's own, then the entity's form label, then the shared one. */
export function fieldLabel(entity: string, key: string): string {
  const ns = ENTITY_NAMESPACES[entity];
  const candidates = [
    `logs:fields.${key}`,
    ...(ns ? [`${ns}:fields.${key}`, `${ns}:${key}`] : []),
    `fields:${key}`,
  ];
  for (const candidate of candidates) {
    const label = text(candidate);
    if (label) return label;
  }
  return key;
}

const yesNo = (v: boolean) => i18n.t(v ? 'logs:yes' : 'logs:no');

/** A value in words: enumerations and built-in names translated, lists joined. */
export function valueText(entity: string, key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') {
    if (key === 'project' || key === 'moveTo') return i18n.t('devices:noProject');
    return i18n.t('common:empty');
  }
  if (typeof value === 'boolean') {
    if (key === 'isShow') return i18n.t(value ? 'menus:shown' : 'menus:hidden');
    return yesNo(value);
  }
  if (Array.isArray(value)) {
    if (key === 'permissions') return value.map((v) => permissionCodeLabel(String(v))).join(', ');
    return value.map((v) => valueText(entity, key, v)).join(', ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  const raw = String(value);
  const lookup = (key2: string) => text(key2) ?? raw;
  switch (key) {
    case 'language':
      return lookup(`common:languages.${raw}`);
    case 'dashboardStyle':
      return lookup(`users:dashboardStyles.${raw}`);
    case 'role':
      return roleNameLabel(raw);
    case 'mode':
      return lookup(`devices:import.modes.${raw}`);
    case 'mapMode':
      return lookup(`devices:mapModes.${raw}`);
    case 'warningLevel':
      return lookup(`devices:levels.${raw}`);
    case 'jumpType':
      return lookup(`menus:jumpTypes.${raw}`);
    case 'menuType':
      return lookup(`menus:menuTypes.${raw}`);
    case 'isShow':
      return raw === '1' ? i18n.t('menus:shown') : raw === '0' ? i18n.t('menus:hidden') : raw;
    case 'type':
      return entity === 'user' ? lookup(`users:types.${raw}`) : raw;
    default:
      return raw;
  }
}

/** Longest value shown in the cell; the tooltip has the whole text. */
export const VALUE_MAX = 40;

function truncate(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** The summary's JSON as an object of fields, or undefined for text that is not one. */
export function parseSummary(summary: string): Record<string, unknown> | undefined {
  if (!summary) return undefined;
  try {
    const value: unknown = JSON.parse(summary);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Why a refused change was refused, in the UI language (the row keeps the server's reason). */
function refusalText(fields: Record<string, unknown>): string | undefined {
  const code = Number(fields.code);
  if (!Number.isInteger(code)) return undefined;
  const message = typeof fields.message === 'string' ? fields.message : '';
  return describeError(new ApiError(code, message, { reason: fields.reason, params: fields.params, field: fields.field }));
}

export interface ReadableSummary {
  /** The object, e.g. "User alice"; empty when the row names none. */
  subject: string;
  /** "field: value" pairs with long values cut short (the cell). */
  short: string;
  /** The same with every value whole (the tooltip). */
  full: string;
}

/**
 * "User alice — Contact number: 555 0199, Role: Administrators": the object by its name (by its
 * id on rows written before names were recorded), then what changed, or why it was refused.
 */
export function readableSummary(
  log: Pick<OperationLogDto, 'entity' | 'entityId' | 'entityName' | 'summary' | 'result'>,
): ReadableSummary {
  const kind = entityLabel(log.entity);
  const subject = log.entityName
    ? `${kind} ${log.entityName}`
    : log.entityId
      ? `${kind} #${log.entityId}`
      : '';
  const fields = parseSummary(log.summary);
  let short: string;
  let full: string;
  if (!fields) {
    // Not JSON (or empty): shown as it is, escaped by React like everything else.
    short = truncate(log.summary, VALUE_MAX * 2);
    full = log.summary;
  } else if (log.result === 'failure' && 'code' in fields) {
    full = refusalText(fields) ?? '';
    short = full;
  } else {
    const pairs = Object.entries(fields).map(([key, value]) => [fieldLabel(log.entity, key), valueText(log.entity, key, value)]);
    short = pairs.map(([label, value]) => `${label}: ${truncate(value!, VALUE_MAX)}`).join(', ');
    full = pairs.map(([label, value]) => `${label}: ${value}`).join(', ');
  }
  const join = (rest: string) => (subject && rest ? `${subject} — ${rest}` : subject || rest);
  return { subject, short: join(short), full: join(full) };
}
