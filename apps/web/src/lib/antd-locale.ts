import { useSyncExternalStore } from 'react';
import dayjs from 'dayjs';
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

/**
 * dayjs's month and weekday names, which antd's date pickers draw: antd's locale names the dayjs
 * locale (`zh-cn`) but does not load it, so without these the pickers show English names in every
 * language. English is built into dayjs.
 */
const DAYJS: Record<Language, { name: string; load?: () => Promise<unknown> }> = {
  zh: { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  en: { name: 'en' },
  es: { name: 'es', load: () => import('dayjs/locale/es') },
  ja: { name: 'ja', load: () => import('dayjs/locale/ja') },
};

const loaded = new Map<Language, Locale>();
const listeners = new Set<() => void>();

/**
 * Downloads antd's and dayjs's texts for `lang` once and makes dayjs format in it; the i18n start
 * and a language switch await it.
 */
export async function loadAntdLocale(lang: Language): Promise<void> {
  const day = DAYJS[lang];
  if (!loaded.has(lang)) {
    const [antd] = await Promise.all([LOADERS[lang](), day.load?.()]);
    loaded.set(lang, antd.default);
  }
  dayjs.locale(day.name);
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
