import { PERMISSIONS } from '@iot/contract/plain';
import type { Language, PermissionCode } from '@iot/contract';
import i18n from './i18n';

/** Anything named in the four languages (menus, menu options, permission-tree nodes). */
export interface Multilingual {
  name: string;
  nameEn?: string;
  nameEs?: string;
  nameJa?: string;
}

/** The name in a language: zh uses `name`; others their column, then English, then `name`. */
export function localizedName(item: Multilingual, lang: Language): string {
  if (lang === 'zh') return item.name;
  const own = lang === 'en' ? item.nameEn : lang === 'es' ? item.nameEs : item.nameJa;
  return own?.trim() || item.nameEn?.trim() || item.name;
}

/** The names the server seeds built-in roles with; a renamed built-in role keeps its own name. */
const BUILTIN_ROLE_NAMES: Record<string, string> = {
  SUPERADMIN: 'Super administrator',
  ADMIN: 'Administrators',
  BATTERYMANAGEMENT: 'Battery management',
};

/** A role's display name: the seeded built-in names are translated, others shown as stored. */
export function roleLabel(identification: string, name: string): string {
  if (BUILTIN_ROLE_NAMES[identification] === name) {
    return i18n.t(`acl:roles.${identification}`, { defaultValue: name });
  }
  return name;
}

/** A role known only by its name (operation-log summaries): the seeded built-in names translate. */
export function roleNameLabel(name: string): string {
  const builtin = Object.entries(BUILTIN_ROLE_NAMES).find(([, seeded]) => seeded === name);
  return builtin ? roleLabel(builtin[0], name) : name;
}

const i18nKeyOf = (code: string) => code.replace(/[:.]/g, '_');

/** A permission's display name: the console's own codes with their seeded name are translated. */
export function permissionLabel(identification: string, name: string): string {
  const seeded = (PERMISSIONS as Record<string, { name: string } | undefined>)[identification];
  if (seeded && seeded.name === name) {
    return i18n.t(`acl:permissions.${i18nKeyOf(identification)}`, { defaultValue: name });
  }
  return name;
}

/** A permission known only by its code (operation-log summaries): the console's codes translate. */
export function permissionCodeLabel(identification: string): string {
  return i18n.t(`acl:permissions.${i18nKeyOf(identification)}`, { defaultValue: identification });
}

/** Whether the console's own routes declare this code (it cannot be renamed or deleted). */
export function isConsoleCode(identification: string): identification is PermissionCode {
  return Object.prototype.hasOwnProperty.call(PERMISSIONS, identification);
}
