import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Col, Form, InputNumber, Row, Select, Skeleton, Space, Table, Tag, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { FENCE_ACTIONS, FENCE_KEPT_STATES, FENCE_LIMITS, type FenceAction, type FenceOp, type FenceState } from '@iot/contract/plain';
import type { DeviceDto, FenceDto, FenceEvent } from '@iot/contract';
import { CommandConfirm, type CommandChange } from '../../../components/CommandConfirm';
import { parseTime } from '../../../lib/format';
import { ApiError, describeError } from '../../../lib/http';
import { deviceDetailKeys } from '../../../lib/query-keys';
import { useMapSettings } from '../../../lib/site';
import { useFenceCommand, useFences } from './api';
import { FENCE_STATE_TAGS, fenceCircles } from './fence-style';
import type { DeviceLive } from './live';

// Leaflet loads only when the tab is opened.
const DeviceMap = lazy(() => import('../../../components/map/DeviceMap'));
const MAP_HEIGHT = 320;
const FENCE_KINDS = new Set(['fenceSet', 'fenceClose', 'fenceRelock']);

interface Values {
  lng: number;
  lat: number;
  radius: number;
  action: FenceAction;
  alarmOnEnter: boolean;
}

/** What waits for the operator's confirmation. */
type Pending = { op: 'set'; values: Values } | { op: 'close' | 'relock'; fence: FenceDto };

/** The result of the operator's last request, read from the fence's history as it arrives live. */
function outcome(fence: FenceDto | undefined, op: FenceOp, after: number): FenceEvent | 'waiting' | undefined {
  if (!fence) return undefined;
  const ev = fence.history.slice(after).find((e) => e.op === op && e.state !== 'set');
  return ev ?? (fence.pending ? 'waiting' : undefined);
}

/**
 * Geo-fences of the device (§4 fence states, §8 fence results): a map with the device and its
 * fences in their states' colours (a click places a new fence's centre), the form (centre, radius,
 * what the device does on leaving, an alarm on entering), each sent after a confirmation naming
 * the device; the list with remove and re-lock, each fence's history below its row. A command's
 * end arrives live (DEVICE_COMMAND) and the list is read again: the server settles the fence first.
 */
export function FencePanel({ device, live }: { device: DeviceDto; live: DeviceLive }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const { data, isLoading } = useFences(device.id);
  const fences = data?.items ?? [];
  const send = useFenceCommand(device.id);
  const [pending, setPending] = useState<Pending | undefined>();
  const [last, setLast] = useState<{ fenceId: number; op: FenceOp; after: number } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const mapSettings = useMapSettings();
  const draftLng = Form.useWatch('lng', form);
  const draftLat = Form.useWatch('lat', form);
  const draftRadius = Form.useWatch('radius', form);
  const canSet = device.can.fence;

  // A fence command that ended (live): read the fences again.
  const ended = Object.values(live.commands).filter((c) => FENCE_KINDS.has(c.kind) && c.status !== 'pending' && c.status !== 'sent').length;
  useEffect(() => {
    if (ended > 0) void qc.invalidateQueries({ queryKey: deviceDetailKeys.fences(device.id) });
  }, [ended, device.id, qc]);

  const circles = fenceCircles(fences, token);
  if (typeof draftLng === 'number' && typeof draftLat === 'number' && typeof draftRadius === 'number') {
    circles.push({ key: 'draft', lng: draftLng, lat: draftLat, radius: draftRadius, color: token.colorPrimary, dashed: true });
  }

  const fenceName = (f: FenceDto) => `${f.fenceId} (${f.radius} m)`;
  const review = (values: Values) => setPending({ op: 'set', values: { ...values, alarmOnEnter: values.alarmOnEnter ?? false } });
  const changes = (p: Pending): CommandChange[] => {
    if (p.op !== 'set') {
      return [{ key: 'fence', parameter: fenceName(p.fence), current: t(`devicedetail:fence.states.${p.fence.state}`), next: t(`devicedetail:fence.ops.${p.op}`) }];
    }
    const v = p.values;
    const row = (key: string, next: string): CommandChange => ({ key, parameter: t(`devicedetail:fence.fields.${key}`), current: t('common:empty'), next });
    return [
      row('centre', `${v.lng.toFixed(6)}, ${v.lat.toFixed(6)}`),
      row('radius', `${v.radius} m`),
      row('action', t(`devicedetail:fence.actions.${v.action}`)),
      row('alarmOnEnter', t(v.alarmOnEnter ? 'devicedetail:fence.yes' : 'devicedetail:fence.no')),
    ];
  };

  const confirm = async () => {
    if (!pending) return;
    setError(undefined);
    try {
      if (pending.op === 'set') {
        const f = await send.mutateAsync({ op: 'set', body: { id: device.id, ...pending.values } });
        setLast({ fenceId: f.id, op: 'set', after: 0 });
      } else {
        const f = await send.mutateAsync({ op: pending.op, fenceId: pending.fence.id });
        setLast({ fenceId: f.id, op: pending.op, after: pending.fence.history.length });
      }
    } catch (err) {
      setError(err instanceof ApiError ? describeError(err) : String(err));
    } finally {
      setPending(undefined);
    }
  };

  const result = last ? outcome(fences.find((f) => f.id === last.fenceId), last.op, last.after) : undefined;
  const resultAlert = (() => {
    if (!last || !result) return null;
    if (result === 'waiting') return { type: 'info' as const, text: t('devicedetail:fence.results.waiting'), status: 'waiting' };
    if (result.state === 'offline') return { type: 'warning' as const, text: t('devicedetail:fence.results.offline'), status: 'offline' };
    if (result.state === 'failed') {
      const reason = result.timedOut ? t('devicedetail:fence.results.timedOut') : result.reason || t('common:empty');
      return { type: 'error' as const, text: t('devicedetail:fence.results.failed', { reason }), status: 'failed' };
    }
    return { type: 'success' as const, text: t(`devicedetail:fence.results.${result.state === 'issued' ? 'sent' : result.state}`), status: result.state };
  })();

  const historyColumns: ColumnsType<FenceEvent> = [
    { title: t('devicedetail:fence.history.at'), dataIndex: 'at', width: 170, render: (v: string) => parseTime(v) },
    { title: t('devicedetail:fence.history.op'), dataIndex: 'op', width: 110, render: (v: FenceOp) => t(`devicedetail:fence.ops.${v}`) },
    {
      title: t('devicedetail:fence.history.state'),
      dataIndex: 'state',
      width: 190,
      render: (v: FenceState, e) => (e.op !== 'set' && v === 'failed' ? t('devicedetail:fence.states.opFailed') : t(`devicedetail:fence.states.${v}`)),
    },
    { title: t('devicedetail:fence.history.user'), dataIndex: 'userName', width: 120, render: (v: string | null) => v ?? t('common:empty') },
    {
      title: t('devicedetail:fence.history.reason'),
      key: 'reason',
      render: (_, e) => (e.timedOut ? t('devicedetail:fence.results.timedOut') : e.reason || t('common:empty')),
    },
  ];

  const columns: ColumnsType<FenceDto> = [
    { title: t('devicedetail:fence.fields.fence'), dataIndex: 'fenceId', width: 110 },
    { title: t('devicedetail:fence.fields.centre'), key: 'centre', render: (_, f) => `${f.lng.toFixed(6)}, ${f.lat.toFixed(6)}` },
    { title: t('devicedetail:fence.fields.radius'), dataIndex: 'radius', width: 100, render: (v: number) => `${v} m` },
    {
      title: t('devicedetail:fence.fields.action'),
      key: 'action',
      render: (_, f) => (
        <>
          {t(`devicedetail:fence.actions.${f.action}`)}
          {f.alarmOnEnter && <Typography.Text type="secondary">{` · ${t('devicedetail:fence.fields.alarmOnEnter')}`}</Typography.Text>}
        </>
      ),
    },
    {
      title: t('devicedetail:fence.fields.state'),
      key: 'state',
      width: 210,
      render: (_, f) => (
        <Space size={4} wrap>
          <Tag color={FENCE_STATE_TAGS[f.state]} data-testid={`fence-state-${f.id}`} data-state={f.state}>
            {t(`devicedetail:fence.states.${f.state}`)}
          </Tag>
          {f.pending && f.pending !== 'set' && <Tag color="processing">{t(`devicedetail:fence.pending.${f.pending}`)}</Tag>}
        </Space>
      ),
    },
    {
      title: t('devicedetail:fence.fields.inside'),
      key: 'inside',
      width: 110,
      render: (_, f) => t(`devicedetail:fence.inside.${f.inside === null ? 'unknown' : f.inside ? 'in' : 'out'}`),
    },
    {
      title: t('devicedetail:fence.fields.actions'),
      key: 'ops',
      width: 200,
      render: (_, f) => {
        const kept = FENCE_KEPT_STATES.includes(f.state);
        const busy = f.pending !== null;
        return (
          <Space size={4}>
            {f.state !== 'removed' && (
              <Button size="small" disabled={!canSet || busy} onClick={() => setPending({ op: 'close', fence: f })} data-testid={`fence-remove-${f.id}`}>
                {t('devicedetail:fence.ops.close')}
              </Button>
            )}
            {kept && (
              <Button size="small" disabled={!canSet || busy} onClick={() => setPending({ op: 'relock', fence: f })} data-testid={`fence-relock-${f.id}`}>
                {t('devicedetail:fence.ops.relock')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  const initial: Partial<Values> = { lng: device.lng ?? undefined, lat: device.lat ?? undefined, radius: 500, action: 'alarm', alarmOnEnter: false };
  const mapCentre = { lng: device.lng ?? draftLng ?? 0, lat: device.lat ?? draftLat ?? 0 };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="fence-panel">
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          {mapSettings ? (
            <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: MAP_HEIGHT }} />}>
              <DeviceMap
                lng={mapCentre.lng}
                lat={mapCentre.lat}
                settings={mapSettings}
                height={MAP_HEIGHT}
                label={t('devicedetail:fence.mapLabel', { count: circles.length })}
                circles={circles}
                onPick={canSet ? (lng, lat) => form.setFieldsValue({ lng: Number(lng.toFixed(6)), lat: Number(lat.toFixed(6)) }) : undefined}
              />
            </Suspense>
          ) : (
            <Skeleton.Node active style={{ width: '100%', height: MAP_HEIGHT }} />
          )}
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title={t('devicedetail:fence.new')}>
            <Form<Values> form={form} layout="horizontal" labelCol={{ flex: '170px' }} initialValues={initial} onFinish={review} data-testid="fence-form">
              <Typography.Paragraph type="secondary">{t('devicedetail:fence.pickHint')}</Typography.Paragraph>
              <Form.Item name="lng" label={t('devicedetail:fence.fields.lng')} rules={[{ required: true, message: t('devicedetail:fence.required') }]}>
                <InputNumber min={-180} max={180} step={0.0001} style={{ width: 200 }} />
              </Form.Item>
              <Form.Item name="lat" label={t('devicedetail:fence.fields.lat')} rules={[{ required: true, message: t('devicedetail:fence.required') }]}>
                <InputNumber min={-90} max={90} step={0.0001} style={{ width: 200 }} />
              </Form.Item>
              <Form.Item
                name="radius"
                label={t('devicedetail:fence.fields.radius')}
                extra={t('devicedetail:fence.radiusRange', { min: FENCE_LIMITS.radiusMin, max: FENCE_LIMITS.radiusMax })}
                rules={[{ required: true, message: t('devicedetail:fence.required') }]}
              >
                <InputNumber min={FENCE_LIMITS.radiusMin} max={FENCE_LIMITS.radiusMax} precision={0} addonAfter="m" style={{ width: 200 }} />
              </Form.Item>
              <Form.Item name="action" label={t('devicedetail:fence.fields.action')}>
                <Select style={{ width: 200 }} options={FENCE_ACTIONS.map((a) => ({ value: a, label: t(`devicedetail:fence.actions.${a}`) }))} />
              </Form.Item>
              <Form.Item name="alarmOnEnter" label={t('devicedetail:fence.fields.alarmOnEnter')} valuePropName="checked">
                <Checkbox>{t('devicedetail:fence.alarmOnEnterHint')}</Checkbox>
              </Form.Item>
              <Form.Item label=" " colon={false}>
                <Button type="primary" htmlType="submit" disabled={!canSet} loading={send.isPending} data-testid="fence-send">
                  {t('devicedetail:fence.send')}
                </Button>
                {!canSet && (
                  <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
                    {t('devicedetail:fence.noPermission')}
                  </Typography.Text>
                )}
              </Form.Item>
            </Form>
            {error && <Alert type="error" showIcon title={error} data-testid="fence-error" />}
            {resultAlert && (
              <Alert type={resultAlert.type} showIcon title={resultAlert.text} data-testid="fence-result" data-status={resultAlert.status} />
            )}
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('devicedetail:fence.title')}>
        <Table<FenceDto>
          rowKey="id"
          size="small"
          loading={isLoading}
          columns={columns}
          dataSource={fences}
          pagination={false}
          data-testid="fence-list"
          locale={{ emptyText: t('devicedetail:fence.none') }}
          expandable={{
            expandedRowRender: (f) => (
              <Table<FenceEvent>
                rowKey={(e) => `${e.at}-${e.op}-${e.state}`}
                size="small"
                columns={historyColumns}
                dataSource={f.history}
                pagination={false}
                data-testid={`fence-history-${f.id}`}
              />
            ),
          }}
        />
      </Card>
      <CommandConfirm
        open={pending !== undefined}
        targets={[{ name: device.name, sn: device.sn }]}
        changes={pending ? changes(pending) : []}
        sending={send.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(undefined)}
      />
    </Space>
  );
}
