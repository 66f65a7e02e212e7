import { useEffect, useState, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme, type ConfigProviderProps } from 'antd';
import enUS from 'antd/locale/en_US';
import esES from 'antd/locale/es_ES';
import jaJP from 'antd/locale/ja_JP';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Language } from '@iot/contract';
import { bindFeedback } from '../lib/feedback';
import { isLanguage } from '../lib/i18n';
import { usePrefersReducedMotion } from '../lib/reduced-motion';
import { useSettings } from './settings';

type Locale = NonNullable<ConfigProviderProps['locale']>;

const ANTD_LOCALES: Record<Language, Locale> = { zh: zhCN, en: enUS, es: esES, ja: jaJP };

function FeedbackBridge() {
  const api = AntApp.useApp();
  useEffect(() => bindFeedback(api), [api]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // The http client already reports failures; retrying would repeat the message. Data is
          // stale at once: a list opened again (another tab, back from an edit) is fetched anew,
          // while the cached rows show in the meantime.
          queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 },
          mutations: { retry: false },
        },
      }),
  );
  const { i18n } = useTranslation();
  const { themeColor } = useSettings();
  const reducedMotion = usePrefersReducedMotion();
  const lang = isLanguage(i18n.language) ? i18n.language : 'en';

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={ANTD_LOCALES[lang]}
        componentSize="middle"
        button={{ autoInsertSpace: false }}
        theme={{ algorithm: theme.defaultAlgorithm, token: { colorPrimary: themeColor, motion: !reducedMotion } }}
      >
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
