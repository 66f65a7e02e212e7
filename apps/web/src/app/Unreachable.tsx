import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { AntdConfig } from './AntdConfig';

/** The session could not be loaded because the server did not answer: offer to try again. */
export default function Unreachable({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <AntdConfig>
      <Result
        status="warning"
        title={t('errors:network')}
        extra={
          <Button type="primary" onClick={onRetry} data-testid="session-retry">
            {t('common:retry')}
          </Button>
        }
      />
    </AntdConfig>
  );
}
