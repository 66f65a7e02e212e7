import type { Language } from '@iot/contract';
import { setLanguage } from './i18n';
import { saveLanguage } from './session';

/**
 * Switches the UI language (cookie, i18next, antd locale) and, when signed in and different from
 * the stored one, saves it (§1).
 */
export async function changeLanguage(lang: Language): Promise<void> {
  await setLanguage(lang);
  await saveLanguage(lang);
}
