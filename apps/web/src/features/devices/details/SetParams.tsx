import { useMemo, useState } from 'react';
import { Alert, Button, Card, Empty, Form, Input, InputNumber, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { isNumericType, PROTOCOL_LIMITS } from '@iot/contract/plain';
import type { CommandDto, CommandStatus, DetailParam, DeviceDto } from '@iot/contract';
import { CommandConfirm, type CommandChange } from '../../../components/CommandConfirm';
import { parseTime } from '../../../lib/format';
import { describeError, ApiError } from '../../../lib/http';
import { currentLanguage } from '../../../lib/i18n';
import { enumLabel } from '../../../lib/localize';
import { useCommands, useDisplayGroups, useSetParams, useWritableParams } from './api';
import { formatValue, paramLabel, withUnit } from './format';
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
function ValueInput({ p, ...control }: { p: DetailParam; id?: string; value?: never; onChange?: never }) {
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

type Values = Record<string, string | number | boolean | null | undefined>;

/**
 * Set parameters: a form of the type's writable parameters, each beside the value the device
 * reports now (live, else its newest stored value), checked against their definitions; sending
 * first asks for confirmation naming the device and each parameter's current and new value, then
 * creates a setParams command whose status follows live (pending → succeeded / failed with the
 * device's reason / device offline / timed out); the command history below.
 */
export function SetParams({ device, live, canSend }: { device: DeviceDto; live: DeviceLive; canSend: boolean }) {
  const deviceId = device.id;
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [form] = Form.useForm<Values>();
  const { data: params = [], isLoading } = useWritableParams(deviceId, true);
  // The newest stored values (the details page already loaded them: the same cached query).
  const { data: groups } = useDisplayGroups(deviceId);
  const send = useSetParams();
  const [last, setLast] = useState<CommandDto | undefined>();
  const [pending, setPending] = useState<{ values: Record<string, string | number | boolean>; changes: CommandChange[] } | undefined>();
  const [page, setPage] = useState(1);
  const { data: history, isFetching } = useCommands(deviceId, page, 10);
  const byId = useMemo(() => new Map(params.map((p) => [p.semaphoreId, p])), [params]);
  const stored = useMemo(
    () => new Map((groups ?? []).flatMap((g) => g.params).map((p) => [p.semaphoreId, p.value] as const)),
    [groups],
  );

  /** What the device reports now: the live value, else the newest stored one. */
  const currentOf = (p: DetailParam) => withUnit(formatValue(p, live.values[p.semaphoreId]?.value ?? stored.get(p.semaphoreId) ?? null, lang, t), p);

  /** A command's newest state: what came live, else what the list loaded. */
  const stateOf = (c: CommandDto): Pick<CommandDto, 'status' | 'message'> => live.commands[c.id] ?? c;

  const showError = (err: unknown) => {
    if (err instanceof ApiError) {
      const field = (err.data as { field?: string } | null)?.field;
      const id = field?.startsWith('values.') ? field.slice('values.'.length) : undefined;
      if (id && byId.has(id)) form.setFields([{ name: fieldOf(id), errors: [describeError(err)] }]);
      else form.setFields([{ name: fieldOf(params[0]?.semaphoreId ?? ''), errors: [describeError(err)] }]);
    }
  };

  /** The form checked: ask before anything is sent. */
  const review = (values: Values) => {
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
    const changes = Object.entries(chosen).map(([id, v]): CommandChange => {
      const p = byId.get(id)!;
      return { key: id, parameter: paramLabel(p, lang), current: currentOf(p), next: withUnit(formatValue(p, v, lang, t), p) };
    });
    setPending({ values: chosen, changes });
  };

  const confirm = async () => {
    if (!pending) return;
    try {
      const cmd = await send.mutateAsync({ id: deviceId, values: pending.values });
      setLast(cmd);
      setPage(1);
    } catch (err) {
      showError(err);
    } finally {
      setPending(undefined);
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
          <Form form={form} layout="horizontal" labelCol={{ flex: '200px' }} onFinish={review} data-testid="set-params-form">
            {params.map((p) => (
              <Form.Item
                key={p.semaphoreId}
                label={paramLabel(p, lang)}
                htmlFor={`set-${p.semaphoreId}`}
                extra={
                  p.min !== null || p.max !== null
                    ? t('devicedetail:set.range', { min: p.min ?? '−∞', max: p.max ?? '∞' })
                    : undefined
                }
              >
                <Space wrap size={[16, 4]}>
                  <Form.Item name={fieldOf(p.semaphoreId)} noStyle>
                    <ValueInput p={p} id={`set-${p.semaphoreId}`} />
                  </Form.Item>
                  <Typography.Text type="secondary" data-testid={`current-${p.semaphoreId}`}>
                    {t('devicedetail:set.current', { value: currentOf(p) })}
                  </Typography.Text>
                </Space>
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
      <CommandConfirm
        open={pending !== undefined}
        targets={[{ name: device.name, sn: device.sn }]}
        changes={pending?.changes ?? []}
        sending={send.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(undefined)}
      />
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
