import { Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../lib/i18n';
import { useDeviceBasic, useDisplayGroups } from './api';
import { formatValue, paramLabel, withUnit } from './format';

/** Values a popup shows: the first parameters of the type's display groups that have a value. */
const KEY_VALUES = 4;

/**
 * A device in a few lines (a map popup): its name, SN and key live values as the details page
 * formats them (GET /device/basic, /device/displayparamgrouplist).
 */
export default function DeviceBrief({ id }: { id: number }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const basic = useDeviceBasic(id);
  const groups = useDisplayGroups(id);
  if (basic.isLoading) return <Skeleton active paragraph={{ rows: 2 }} title={false} />;
  const device = basic.data;
  const values = (groups.data ?? []).flatMap((g) => g.params).filter((p) => p.value !== null).slice(0, KEY_VALUES);
  return (
    <div data-testid="device-brief">
      {device && (
        <>
          <Typography.Text strong>{device.name}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{device.sn}</Typography.Text>
        </>
      )}
      {values.length > 0 && (
        <dl style={{ margin: '4px 0 0', display: 'grid', gridTemplateColumns: 'auto auto', columnGap: 8 }}>
          {values.map((p) => (
            <div key={p.semaphoreId} style={{ display: 'contents' }}>
              <dt style={{ color: 'rgba(0,0,0,0.65)' }}>{paramLabel(p, lang)}</dt>
              <dd style={{ margin: 0, textAlign: 'end' }}>{withUnit(formatValue(p, p.value, lang, t), p)}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
