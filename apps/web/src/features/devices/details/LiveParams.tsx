import { Card, Col, Empty, Row, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DisplayGroup, DisplayParam } from '@iot/contract';
import { formatTime, parseTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { formatValue, isStale, paramLabel, withUnit } from './format';
import type { LiveValue } from './live';

/** The newest value of a parameter: what arrived live, else what the page loaded. */
export function current(p: DisplayParam, liveValues: Record<string, LiveValue>): { value: DisplayParam['value']; ts: string | null } {
  const l = liveValues[p.semaphoreId];
  if (l && (!p.ts || Date.parse(l.ts) >= Date.parse(p.ts))) return { value: l.value, ts: l.ts };
  return { value: p.value, ts: p.ts };
}

/**
 * The device's parameters grouped and ordered as its type defines them: value with unit (enum
 * values by their label in the UI language), the time of the value, stale values marked; values
 * arriving over the live channel replace them without a reload.
 */
export function LiveParams({ groups, liveValues, now }: { groups: DisplayGroup[]; liveValues: Record<string, LiveValue>; now: number }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  if (groups.length === 0) return <Empty description={t('devicedetail:noParams')} />;
  return (
    <Row gutter={[16, 16]} data-testid="live-params">
      {groups.map((g) => (
        <Col key={g.group} xs={24} lg={12} xxl={8}>
          <Card size="small" title={t(`devicedetail:groups.${g.group || 'other'}`, { defaultValue: g.group || t('devicedetail:groups.other') })}>
            <table style={{ width: '100%', borderCollapse: 'collapse' }}>
              <tbody>
                {g.params.map((p) => {
                  const { value, ts } = current(p, liveValues);
                  const stale = isStale(ts, now);
                  return (
                    <tr key={p.semaphoreId} data-testid={`param-${p.semaphoreId}`} style={{ borderBottom: '1px solid rgba(0,0,0,0.06)' }}>
                      <td style={{ padding: '4px 8px 4px 0' }}>
                        <Tooltip title={p.semaphoreId}>
                          <Typography.Text type="secondary">{paramLabel(p, lang)}</Typography.Text>
                        </Tooltip>
                      </td>
                      <td style={{ padding: '4px 0', textAlign: 'right', whiteSpace: 'nowrap' }}>
                        <Typography.Text strong type={stale ? 'secondary' : undefined} data-testid={`value-${p.semaphoreId}`}>
                          {value === null ? t('common:empty') : withUnit(formatValue(p, value, lang, t), p)}
                        </Typography.Text>
                        {stale && (
                          <Tag color="warning" style={{ marginLeft: 6, marginInlineEnd: 0 }} data-testid={`stale-${p.semaphoreId}`}>
                            {t('devicedetail:stale')}
                          </Tag>
                        )}
                      </td>
                      <td style={{ padding: '4px 0 4px 8px', textAlign: 'right', width: 110 }}>
                        {ts && (
                          <Tooltip title={parseTime(ts)}>
                            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                              {formatTime(ts, undefined, t)}
                            </Typography.Text>
                          </Tooltip>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
