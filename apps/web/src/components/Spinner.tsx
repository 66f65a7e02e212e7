import { useTranslation } from 'react-i18next';

/**
 * A spinning ring in the theme's colour (styles.css), named "Loading" for screen readers. Plain
 * CSS, not antd's Spin: it shows on the login page and while the signed-in frame is on its way.
 */
export function Spinner({ size = 20 }: { size?: number }) {
  const { t } = useTranslation();
  return <span className="console-spinner" role="status" aria-label={t('common:loading')} style={{ width: size, height: size }} />;
}
