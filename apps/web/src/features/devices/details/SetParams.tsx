import { useState } from 'react';
import { Alert, Button, Card, Empty, Form, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { isNumericType, PROTOCOL_LIMITS } from '@iot/contract/plain';
import type { CommandDto, CommandStatus, DetailParam } from '@iot/contract';
import { parseTime } from '../../../lib/format';
import { describeError, ApiError } from '../../../lib/http';
import { currentLanguage } from '../../../lib/i18n';
import { enumLabel } from '../../../lib/localize';
import { useCommands, useSetParams, useWritableParams } from './api';
import { formatValue, paramLabel } from './format';
import type { DeviceLive } from './live';

export const STATUS_COLORS: Record<CommandStatus, string> = {
  pending: 'processing',
  sent: 'processing',
  succeeded: 'success',
  failed: 'error',
  timeout: 'warning',
  offline: 'default',
};

const fieldOf = (semaphoreId: string) => `p${semaphoreId}`;

/** The control for one writable parameter, bounded by its definition (Form.Item passes value and onChange through). */
function ValueInput({ p, ...control }: { p: DetailParam; value?: never; onChange?: never }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  if (p.dataType === 'boolean') {
    return (
      <Select
        {...control}
        allowClear
        placeholder={t('devicedetail:set.unchanged')}
        options={[
          // As text: a select keeps no boolean `false` as its value.
          { value: 'true', label: t('devicedetail:on') },
          { value: 'false', label: t('devicedetail:off') },
        ]}
        style={{ width: 200 }}
      />
    );
  }
  if (p.dataType === 'enum') {
    return (
      <Select
        {...control}
        allowClear
        placeholder={t('devicedetail:set.unchanged')}
        options={p.enumValues.map((o) => ({ value: o.value, label: enumLabel(o, lang) }))}
        style={{ width: 200 }}
      />
    );
  }
  if (isNumericType(p.dataType)) {
    return (
      <InputNumber
        {...control}
        placeholder={t('devicedetail:set.unchanged')}
        min={p.min ?? undefined}
        max={p.max ?? undefined}
        precision={p.dataType === 'integer' ? 0 : undefined}
        addonAfter={p.unit || undefined}
        style={{ width: 200 }}
      />
    );
  }
  return <Input {...control} placeholder={t('devicedetail:set.unchanged')} maxLength={PROTOCOL_LIMITS.textValue} style={{ width: 200 }} />;
}

/**
 * Set parameters: a form of the type's writable parameters, checked against their definitions;
 * sending creates a setParams command whose status follows live (pending → succeeded / failed
 * with the device's reason / device offline / timed out); the command history below.
 */
export function SetParams({ deviceId, live, canSend }: { deviceId: number; live: DeviceLive; canSend: boolean }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [form] = Form.useForm<Record<string, string | number | boolean | null | undefined>>();
  const { data: params = [], isLoading } = useWritableParams(deviceId, true);
  const send = useSetParams();
  const [last, setLast] = useState<CommandDto | undefined>();
  const [page, setPage] = useState(1);
  const { data: history, isFetching } = useCommands(deviceId, page, 10);
  const byId = new Map(params.map((p) => [p.semaphoreId, p]));

  /** A command's newest state: what came live, else what the list loaded. */
  const stateOf = (c: CommandDto): Pick<CommandDto, 'status' | 'message'> => live.commands[c.id] ?? c;

  const submit = async (values: Record<string, string | number | boolean | null | undefined>) => {
    // Field names are `p<semaphore id>` (a bare numeric name would be read as an array index).
    const chosen = Object.fromEntries(
      Object.entries(values)
        .filter((e): e is [string, string | number | boolean] => e[1] !== undefined && e[1] !== null && e[1] !== '')
        .map(([k, v]) => {
          const id = k.slice(1);
          return [id, byId.get(id)?.dataType === 'boolean' ? v === 'true' || v === true : v];
        }),
    );
    if (Object.keys(chosen).length === 0) {
      form.setFields([{ name: fieldOf(params[0]?.semaphoreId ?? ''), errors: [t('devicedetail:set.nothing')] }]);
      return;
    }
    try {
      const cmd = await send.mutateAsync({ id: deviceId, values: chosen });
      setLast(cmd);
      setPage(1);
    } catch (err) {
      if (err instanceof ApiError) {
        const field = (err.data as { field?: string } | null)?.field;
        const id = field?.startsWith('values.') ? field.slice('values.'.length) : undefined;
        if (id && byId.has(id)) form.setFields([{ name: fieldOf(id), errors: [describeError(err)] }]);
        else form.setFields([{ name: fieldOf(params[0]?.semaphoreId ?? ''), errors: [describeError(err)] }]);
      }
    }
  };

  const lastState = last ? stateOf(last) : undefined;
  const payloadText = (payload: unknown) =>
    Object.entries((payload ?? {}) as Record<string, string | number | boolean>)
      .map(([id, v]) => {
        const p = byId.get(id);
        return p ? `${paramLabel(p, lang)} = ${formatValue(p, v, lang, t)}` : `${id} = ${String(v)}`;
      })
      .join(', ');

  const columns: ColumnsType<CommandDto> = [
    { title: t('devicedetail:set.time'), dataIndex: 'createdAt', width: 170, render: (v: string) => parseTime(v) },
    { title: t('devicedetail:set.by'), dataIndex: 'createdByName', width: 120, render: (v: string | null) => v ?? t('common:empty') },
    { title: t('devicedetail:set.values'), dataIndex: 'payload', render: (v: unknown) => payloadText(v) },
    {
      title: t('devicedetail:set.status'),
      key: 'status',
      width: 160,
      render: (_, c) => {
        const s = stateOf(c);
        return (
          <Tag color={STATUS_COLORS[s.status]} data-testid={`command-status-${c.id}`}>
            {t(`devicedetail:status.${s.status}`)}
          </Tag>
        );
      },
    },
    { title: t('devicedetail:set.reason'), key: 'message', render: (_, c) => stateOf(c).message || t('common:empty') },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title={t('devicedetail:set.title')} loading={isLoading}>
        {params.length === 0 ? (
          <Empty description={t('devicedetail:set.none')} />
        ) : (
          <Form form={form} layout="horizontal" labelCol={{ flex: '200px' }} onFinish={(v) => void submit(v)} data-testid="set-params-form">
            {params.map((p) => (
              <Form.Item
                key={p.semaphoreId}
                name={fieldOf(p.semaphoreId)}
                label={paramLabel(p, lang)}
                extra={
                  p.min !== null || p.max !== null
                    ? t('devicedetail:set.range', { min: p.min ?? '−∞', max: p.max ?? '∞' })
                    : undefined
                }
              >
                <ValueInput p={p} />
              </Form.Item>
            ))}
            <Form.Item label=" " colon={false}>
              <Button type="primary" htmlType="submit" loading={send.isPending} disabled={!canSend} data-testid="set-params-send">
                {t('devicedetail:set.send')}
              </Button>
              {!canSend && (
                <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
                  {t('devicedetail:set.noPermission')}
                </Typography.Text>
              )}
            </Form.Item>
          </Form>
        )}
        {last && lastState && (
          <Alert
            data-testid="set-params-result"
            data-status={lastState.status}
            showIcon
            type={lastState.status === 'succeeded' ? 'success' : lastState.status === 'failed' || lastState.status === 'timeout' ? 'error' : lastState.status === 'offline' ? 'warning' : 'info'}
            message={t(`devicedetail:status.${lastState.status}`)}
            description={
              lastState.status === 'failed'
                ? t('devicedetail:set.failedReason', { reason: lastState.message || t('common:empty') })
                : t(`devicedetail:statusHelp.${lastState.status}`)
            }
          />
        )}
      </Card>
      <Card size="small" title={t('devicedetail:set.history')}>
        <Table<CommandDto>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={history?.items ?? []}
          loading={isFetching}
          data-testid="command-history"
          pagination={{ current: page, pageSize: 10, total: history?.total ?? 0, hideOnSinglePage: true, onChange: setPage }}
        />
      </Card>
    </Space>
  );
}
