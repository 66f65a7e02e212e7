import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES } from '@iot/contract/plain';
import type { Language } from '@iot/contract';
import { loadAntdLocale } from './antd-locale';
import { getLanguageCookie, setLanguageCookie } from './cookies';

/**
 * Every `src/locales/<lang>/<namespace>.json`, loaded on demand: only the UI language's texts are
 * downloaded (one chunk per language, see vite.config.ts), and another language's when the user
 * switches to it.
 */
const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { import: 'default' });

const FILE = /locales\/([^/]+)\/([^/]+)\.json$/;
export const NAMESPACES = [
  ...new Set(Object.keys(files).flatMap((path) => (FILE.exec(path)?.[1] === 'en' ? [FILE.exec(path)![2]!] : []))),
];

/** i18next backend reading the bundled locale files. */
const bundledLocales: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = files[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`no texts for ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (texts) => callback(null, texts as ResourceKey),
      (err: Error) => callback(err, false),
    );
  },
};

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

// <html lang> follows the UI language (screen readers, fonts, hyphenation).
i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined' && isLanguage(lng)) document.documentElement.lang = lng;
});

const startLanguage = detectLanguage();
const texts = i18n
  .use(bundledLocales)
  .use(initReactI18next)
  .init({
    lng: startLanguage,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: NAMESPACES,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });

/**
 * Resolves once the UI language's texts, the console's and antd's, are loaded: render after it.
 * Every language has every key (`npm run i18n:check`), so no fallback language is downloaded.
 */
export const i18nReady = Promise.all([texts, loadAntdLocale(startLanguage)]);

export function currentLanguage(): Language {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lang) ? lang : 'en';
}

/** Switches the UI language (the console's and antd's texts) and remembers it in the `language` cookie. */
export async function setLanguage(lang: Language): Promise<void> {
  setLanguageCookie(lang);
  await Promise.all([i18n.changeLanguage(lang), loadAntdLocale(lang)]);
}

/** A site-config field for a language: zh has no suffix; en, es and ja use En, Es, Ja. */
export function languageSuffix(lang: Language): '' | 'En' | 'Es' | 'Ja' {
  return lang === 'zh' ? '' : lang === 'en' ? 'En' : lang === 'es' ? 'Es' : 'Ja';
}

export default i18n;
