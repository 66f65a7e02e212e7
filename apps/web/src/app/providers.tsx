import { useEffect, useState, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAntdLocale } from '../lib/antd-locale';
import { bindFeedback } from '../lib/feedback';
import { isLanguage } from '../lib/i18n';
import { usePrefersReducedMotion } from '../lib/reduced-motion';
import { primaryFor, useSettings } from './settings';

/**
 * antd's default greys and status colours are below WCAG AA's 4.5:1 for small text on white
 * (muted text 3.4:1, placeholders 1.8:1, red 3.3:1, green 2.2:1): the console's are darker.
 */
const READABLE_TOKENS = {
  colorTextTertiary: 'rgba(0, 0, 0, 0.56)',
  colorTextDescription: 'rgba(0, 0, 0, 0.56)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
  // Darker text, antd's own light backgrounds (derived from the darker colour they turn grey).
  colorError: '#C43B3D',
  colorErrorBg: '#FFF2F0',
  colorErrorBorder: '#FFCCC7',
  colorSuccess: '#368111',
  colorSuccessBg: '#F6FFED',
  colorSuccessBorder: '#B7EB8F',
};

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
  const antdLocale = useAntdLocale(lang);
  const primary = primaryFor(themeColor);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={antdLocale}
        componentSize="middle"
        button={{ autoInsertSpace: false }}
        theme={{
          algorithm: theme.defaultAlgorithm,
          token: { ...READABLE_TOKENS, colorPrimary: primary, colorInfo: primary, motion: !reducedMotion },
        }}
      >
        <AntApp>
          <FeedbackBridge />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
