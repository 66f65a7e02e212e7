import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Descriptions, Drawer, Empty, Input, Progress, Space, Spin, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CARD_LIMITS } from '@iot/contract/plain';
import type { WhitelistEntry } from '@iot/contract';
import { ApiError, describeError } from '../../lib/http';
import { parseTime } from '../../lib/format';
import { feedbackMessage } from '../../lib/feedback';
import { DeleteLink } from '../../components/ListActions';
import { useCard, useCarrier, useConfigWhitelist } from './api';
import { DaysLeft, STATUS_COLORS } from './CardListPage';

/** A carrier answer's frame: when it was fetched, a refresh button, and the carrier's error. */
interface CarrierQuery<T> {
  data?: { ok: boolean; data: T | null; error: { code: string; message: string } | null; fetchedAt: string; carrier: string };
  isLoading: boolean;
  isError: boolean;
  refresh: () => Promise<void>;
}

function CarrierPanel<T>({ title, query, testId, children }: { title: string; query: CarrierQuery<T>; testId: string; children: (data: T) => ReactNode }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const answer = query.data;
  return (
    <Card
      size="small"
      title={title}
      data-testid={testId}
      extra={
        <Space>
          {answer && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('cards:live.fetchedAt', { time: parseTime(answer.fetchedAt) })} ·{' '}
              {t(`cards:live.adapters.${answer.carrier}`, { defaultValue: answer.carrier })}
            </Typography.Text>
          )}
          <Button
            size="small"
            icon={<ReloadOutlined />}
            loading={busy}
            data-testid={`${testId}-refresh`}
            onClick={() => {
              setBusy(true);
              void query.refresh().catch(() => undefined).finally(() => setBusy(false));
            }}
          >
            {t('cards:live.refresh')}
          </Button>
        </Space>
      }
    >
      {query.isLoading && <Spin />}
      {query.isError && <Alert type="error" showIcon title={t('cards:live.failed')} />}
      {answer && !answer.ok && answer.error && (
        <Alert type="warning" showIcon data-testid={`${testId}-error`} title={t('cards:live.carrierError', { code: answer.error.code, message: answer.error.message })} />
      )}
      {answer?.ok && answer.data && children(answer.data)}
    </Card>
  );
}

/** A carrier's date ("20240722000000") as the console writes dates; anything else as it came. */
const carrierDate = (value: string | null | undefined) => parseTime(value ?? '', '{y}-{m}-{d}') ?? value ?? '';

/** A card's page: its record, live carrier data (short cache, refresh on demand) and voice whitelist. */
export function CardDrawer({ id, onClose }: { id: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const card = useCard(id);
  // What the server allows this caller on this card (its owner line and the role's codes).
  const canEdit = card.data?.can.edit ?? false;
  const basic = useCarrier('basicInfo', id);
  const voice = useCarrier('voiceMargin', id);
  const whitelist = useCarrier('whitelist', id);
  const config = useConfigWhitelist(id ?? 0);
  const [number, setNumber] = useState('');
  const c = card.data;

  const change = async (operation: 'add' | 'delete', whiteNumber: string) => {
    try {
      await config.mutateAsync({ operation, whiteNumber });
      feedbackMessage().success(t(operation === 'add' ? 'cards:whitelist.added' : 'cards:whitelist.removed'));
      if (operation === 'add') setNumber('');
    } catch (err) {
      if (err instanceof ApiError) feedbackMessage().error(describeError(err));
    }
  };

  return (
    <Drawer open={id !== undefined} onClose={onClose} size={720} title={c ? `${t('cards:details')} · ${c.iccid}` : t('cards:details')} destroyOnHidden data-testid="card-drawer">
      {card.isLoading && <Spin />}
      {c && (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('cards:fields.iccid')}>{c.iccid}</Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.msisdn')}>{c.msisdn || t('common:empty')}</Descriptions.Item>
            {/* The carrier knows the IMSI when the record does not (imported cards without one). */}
            <Descriptions.Item label={t('cards:fields.imsi')}>{c.imsi || basic.data?.data?.imsi || t('common:empty')}</Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.carrier')}>{t(`cards:carriers.${c.carrier}`)}</Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.plan')}>{c.plan || t('common:empty')}</Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.status')}>
              <Tag color={STATUS_COLORS[c.status]}>{t(`cards:status.${c.status}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.activatedAt')}>{c.activatedAt ?? t('common:empty')}</Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.expiresAt')}>
              <DaysLeft card={c} />
            </Descriptions.Item>
            <Descriptions.Item label={t('cards:columns.data')} span={2}>
              <Progress percent={c.dataAllowanceMb ? Math.round((c.dataUsedMb / c.dataAllowanceMb) * 100) : 0} size="small" format={() => `${c.dataUsedMb} / ${c.dataAllowanceMb} MB`} />
            </Descriptions.Item>
            <Descriptions.Item label={t('cards:columns.voice')} span={2}>
              {`${c.voiceUsedMin} / ${c.voiceAllowanceMin} ${t('cards:minutes')}`}
            </Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.device')}>{c.deviceName ? `${c.deviceName} (${c.deviceSn})` : t('common:empty')}</Descriptions.Item>
            <Descriptions.Item label={t('cards:fields.project')}>{c.projectName ?? t('common:empty')}</Descriptions.Item>
          </Descriptions>

          <CarrierPanel title={t('cards:live.basic')} query={basic} testId="carrier-basic">
            {(d) => (
                <Descriptions size="small" column={2}>
                  <Descriptions.Item label="MSISDN">{d.msisdn}</Descriptions.Item>
                  <Descriptions.Item label="IMSI">{d.imsi}</Descriptions.Item>
                  <Descriptions.Item label="ICCID">{d.iccid}</Descriptions.Item>
                  <Descriptions.Item label={t('cards:live.activeDate')}>{carrierDate(d.activeDate)}</Descriptions.Item>
                  <Descriptions.Item label={t('cards:live.openDate')}>{carrierDate(d.openDate)}</Descriptions.Item>
                </Descriptions>
              )}
          </CarrierPanel>

          <CarrierPanel title={t('cards:live.voice')} query={voice} testId="carrier-voice">
            {(d) => (
                <Table
                  size="small"
                  rowKey="offeringId"
                  pagination={false}
                  dataSource={d}
                  columns={[
                    { title: t('cards:live.offering'), dataIndex: 'offeringName' },
                    { title: t('cards:live.total'), dataIndex: 'totalAmount' },
                    { title: t('cards:live.used'), dataIndex: 'useAmount' },
                    { title: t('cards:live.remain'), dataIndex: 'remainAmount' },
                  ]}
                />
              )}
          </CarrierPanel>

          <CarrierPanel title={t('cards:whitelist.title')} query={whitelist} testId="carrier-whitelist">
            {(d) => (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  <Typography.Text type="secondary">{t('cards:whitelist.usage', { count: d.totalCount, max: d.max })}</Typography.Text>
                  {d.numbers.length === 0 ? (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('cards:whitelist.empty')} />
                  ) : (
                    <Table<WhitelistEntry>
                      size="small"
                      rowKey="whiteNumber"
                      pagination={false}
                      dataSource={d.numbers}
                      data-testid="whitelist-table"
                      columns={[
                        { title: t('cards:whitelist.number'), dataIndex: 'whiteNumber' },
                        { title: t('cards:whitelist.status'), dataIndex: 'status' },
                        ...(canEdit
                          ? [
                              {
                                title: t('crud:actions'),
                                key: 'actions',
                                render: (_: unknown, w: WhitelistEntry) => (
                                  <DeleteLink testId={`whitelist-delete-${w.whiteNumber}`} title={t('cards:whitelist.deleteConfirm', { number: w.whiteNumber })} onConfirm={() => change('delete', w.whiteNumber)} />
                                ),
                              },
                            ]
                          : []),
                      ]}
                    />
                  )}
                  {canEdit && (
                    <Space.Compact style={{ width: 360 }}>
                      <Input
                        value={number}
                        maxLength={CARD_LIMITS.whiteNumber}
                        placeholder={t('cards:whitelist.placeholder')}
                        onChange={(e) => setNumber(e.target.value.trim())}
                        onPressEnter={() => number && void change('add', number)}
                        data-testid="whitelist-number"
                      />
                      <Button
                        type="primary"
                        disabled={!/^\+?\d+$/.test(number) || d.totalCount >= d.max}
                        loading={config.isPending}
                        onClick={() => void change('add', number)}
                        data-testid="whitelist-add"
                      >
                        {t('crud:add')}
                      </Button>
                    </Space.Compact>
                  )}
                </Space>
              )}
          </CarrierPanel>
        </Space>
      )}
    </Drawer>
  );
}
