import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAntdLocale } from '../lib/antd-locale';
import { readableOn } from '../lib/contrast';
import { bindFeedback } from '../lib/feedback';
import { isLanguage } from '../lib/i18n';
import { usePrefersReducedMotion } from '../lib/reduced-motion';
import { useUiSize } from '../lib/ui-size';
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

/** antd's lightest tint of a blue, the background of info tags and alerts. */
const INFO_TINT = '#E6F4FF';

/**
 * antd's theme (the settings' colour, readable greys, reduced motion) and texts in the UI
 * language, with antd's App for `App.useApp()`. The login page does without antd; everything
 * that uses it (the signed-in frame, the unreachable screen, the feedback host) sits inside this.
 */
export function AntdConfig({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { themeColor } = useSettings();
  const size = useUiSize();
  const reducedMotion = usePrefersReducedMotion();
  const antdLocale = useAntdLocale(isLanguage(i18n.language) ? i18n.language : 'en');
  const primary = primaryFor(themeColor);
  // antd's "processing" tags and info alerts draw this colour on its own light tint (about
  // #E6F4FF), not on white: 4.5:1 there needs a shade darker than the primary (a pack's
  // "Discharging" state was 4.25:1).
  const info = readableOn(primary, INFO_TINT);
  return (
    <ConfigProvider
      locale={antdLocale}
      componentSize={size}
      button={{ autoInsertSpace: false }}
      theme={{
        algorithm: theme.defaultAlgorithm,
        token: { ...READABLE_TOKENS, colorPrimary: primary, colorInfo: info, motion: !reducedMotion },
      }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}

function Bridge() {
  const api = AntApp.useApp();
  useEffect(() => bindFeedback(api), [api]);
  return null;
}

/**
 * Where messages and confirm boxes of code outside React are drawn (lib/feedback). It sits beside
 * the routes, not around them, and stays once mounted: a message shown while the signed-in frame
 * gives way to the login page stays on screen.
 */
export default function FeedbackHost() {
  return (
    <AntdConfig>
      <Bridge />
    </AntdConfig>
  );
}
