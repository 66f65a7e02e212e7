import { useSyncExternalStore } from 'react';
import type { ConfigProviderProps } from 'antd';
import type { Language } from '@iot/contract';

type Locale = NonNullable<ConfigProviderProps['locale']>;

/** antd's texts (pagination, pickers, empty states) per UI language, each in its own small chunk. */
const LOADERS: Record<Language, () => Promise<{ default: Locale }>> = {
  zh: () => import('antd/locale/zh_CN'),
  en: () => import('antd/locale/en_US'),
  es: () => import('antd/locale/es_ES'),
  ja: () => import('antd/locale/ja_JP'),
};

const loaded = new Map<Language, Locale>();
const listeners = new Set<() => void>();

/** Downloads antd's texts for `lang` once; the i18n start and a language switch await it. */
export async function loadAntdLocale(lang: Language): Promise<void> {
  if (loaded.has(lang)) return;
  loaded.set(lang, (await LOADERS[lang]()).default);
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** antd's texts for `lang` once loaded (antd's built-in English until then). */
export function useAntdLocale(lang: Language): Locale | undefined {
  return useSyncExternalStore(subscribe, () => loaded.get(lang));
}
