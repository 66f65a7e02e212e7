import type { Language } from '@iot/contract';
import { setLanguage } from '../lib/i18n';
import { savePreferences, sessionStore } from './session';

/** Switches the UI language (cookie, i18next, antd locale) and, when signed in, saves it (§1). */
export async function changeLanguage(lang: Language): Promise<void> {
  await setLanguage(lang);
  if (sessionStore.get().token) await savePreferences({ language: lang });
}
