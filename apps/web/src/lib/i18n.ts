import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '@iot/contract';
import { getLanguageCookie, setLanguageCookie } from './cookies';

/** Every `src/locales/<lang>/<namespace>.json`, bundled at build time. */
const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

type Resources = Record<string, Record<string, Record<string, unknown>>>;
const resources: Resources = {};
for (const [path, content] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lang, ns] = match as unknown as [string, string, string];
  (resources[lang] ??= {})[ns] = content;
}

export const NAMESPACES = Object.keys(resources.en ?? {});

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps a browser language tag (zh-CN, en-GB, es-419, ja) to a console language. */
export function matchLanguage(tag: string): Language | undefined {
  const base = tag.toLowerCase().split(/[-_]/)[0];
  return isLanguage(base) ? base : undefined;
}

/** §1: the cookie first, then the browser's preferred languages, then English. */
export function detectLanguage(): Language {
  const stored = getLanguageCookie();
  if (isLanguage(stored)) return stored;
  const preferred =
    typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of preferred) {
    const lang = tag ? matchLanguage(tag) : undefined;
    if (lang) return lang;
  }
  return 'en';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = currentLanguage();

export function currentLanguage(): Language {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lang) ? lang : 'en';
}

/** Switches the UI language and remembers it in the `language` cookie. */
export async function setLanguage(lang: Language): Promise<void> {
  setLanguageCookie(lang);
  await i18n.changeLanguage(lang);
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

/** A site-config field for a language: zh has no suffix; en, es and ja use En, Es, Ja. */
export function languageSuffix(lang: Language): '' | 'En' | 'Es' | 'Ja' {
  return lang === 'zh' ? '' : lang === 'en' ? 'En' : lang === 'es' ? 'Es' : 'Ja';
}

export default i18n;
