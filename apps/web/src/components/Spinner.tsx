import { useTranslation } from 'react-i18next';

/**
 * A spinning ring in the theme's colour (styles.css), named "Loading" for screen readers unless
 * `decorative` (inside a button that already says it is busy). Plain CSS, not antd's Spin: it
 * shows on the login page and while the signed-in frame is on its way.
 */
export function Spinner({ size = 20, decorative = false }: { size?: number; decorative?: boolean }) {
  const { t } = useTranslation();
  const style = { width: size, height: size };
  if (decorative) return <span className="console-spinner" aria-hidden="true" style={style} />;
  return <span className="console-spinner" role="status" aria-label={t('common:loading')} style={style} />;
}
