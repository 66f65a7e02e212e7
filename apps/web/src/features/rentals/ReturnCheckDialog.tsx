import { Alert, Descriptions, List, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RentalDto } from '@iot/contract';
import { AlarmLevelTag } from '../../components/AlarmLevel';
import { Spinner } from '../../components/Spinner';
import { formatQuantity, formatTime } from '../../lib/format';
import { useReturnCheck, useTransition } from './api';


/**
 * The return check: the pack's live SOC, cell voltage spread, temperature and active alarms held
 * against the store's thresholds; confirming returns it (a failing pack goes to faulty).
 */
export function ReturnCheckDialog({ rental, onClose }: { rental: RentalDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const check = useReturnCheck(rental?.id);
  const transition = useTransition();
  const c = check.data;
  return (
    <Modal
      open={!!rental}
      title={rental ? t('rentals:check.title', { sn: rental.deviceSn }) : ''}
      okText={t('rentals:check.confirm')}
      cancelText={t('common:cancel')}
      okButtonProps={{ disabled: !c, loading: transition.isPending, ...({ 'data-testid': 'return-confirm' } as object) }}
      onOk={() => rental && transition.mutate({ id: rental.id, action: 'return' }, { onSuccess: onClose })}
      onCancel={onClose}
      destroyOnHidden
      data-testid="return-check"
    >
      {!c ? (
        <Spinner />
      ) : (
        <>
          <Alert
            type={c.passed ? 'success' : 'error'}
            showIcon
            title={c.passed ? t('rentals:check.passed') : t('rentals:check.failed', { faults: c.faults.map((f) => t(`rentals:faults.${f}`)).join(', ') })}
            style={{ marginBottom: 12 }}
            data-testid="check-verdict"
          />
          <Descriptions size="small" column={1} bordered>
            <Descriptions.Item label="SOC">{c.soc === null ? t('common:empty') : formatQuantity(c.soc, '%', 0)}</Descriptions.Item>
            <Descriptions.Item label={t('rentals:check.cellDelta')}>
              {c.cellDeltaMv === null ? t('common:empty') : formatQuantity(c.cellDeltaMv, 'mV', 0)}{' '}
              <Tag>{t('rentals:check.max', { value: formatQuantity(c.thresholds.maxCellDeltaMv, 'mV', 0) })}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('rentals:check.temp')}>
              {c.maxTempC === null ? t('common:empty') : formatQuantity(c.maxTempC, '°C', 1)}{' '}
              <Tag>{t('rentals:check.max', { value: formatQuantity(c.thresholds.maxTempC, '°C', 0) })}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('rentals:check.reportedAt')}>{c.reportedAt ? formatTime(c.reportedAt) : t('rentals:check.never')}</Descriptions.Item>
          </Descriptions>
          <List
            size="small"
            header={t('rentals:check.alarms', { count: c.alarms.length })}
            dataSource={c.alarms}
            locale={{ emptyText: t('rentals:check.noAlarms') }}
            renderItem={(a) => (
              <List.Item>
                <AlarmLevelTag level={a.level} /> {a.message} · {formatTime(a.startedAt)}
              </List.Item>
            )}
          />
        </>
      )}
    </Modal>
  );
}
