import type { Language } from '@iot/contract';
import { languageSuffix } from './i18n';

/**
 * Texts kept in four columns: `name` (Chinese, always filled) and `nameEn`/`nameEs`/`nameJa`.
 * The UI language picks its column and falls back to the Chinese one when that is empty.
 */
export function localized<B extends string>(
  row: { [K in B | `${B}En` | `${B}Es` | `${B}Ja`]?: string },
  base: B,
  lang: Language,
): string {
  const suffix = languageSuffix(lang);
  const own = suffix ? row[`${base}${suffix}` as `${B}En`] : undefined;
  return own?.trim() || row[base] || '';
}

/** The name of a parameter or a device type in the UI language. */
export const localName = (p: { name: string; nameEn?: string; nameEs?: string; nameJa?: string }, lang: Language) =>
  localized(p, 'name', lang);

export const enumLabel = (
  e: { label: string; labelEn?: string; labelEs?: string; labelJa?: string },
  lang: Language,
) => localized(e, 'label', lang);

export const ruleMessage = (
  r: { message: string; messageEn?: string; messageEs?: string; messageJa?: string },
  lang: Language,
) => localized(r, 'message', lang);
