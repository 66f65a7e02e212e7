import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { RENTAL_KINDS, RENTAL_STATES, rentalRoutes, type RentalAction, type RentalState } from '@iot/contract/plain';
import type { RentalDto } from '@iot/contract';
import { usePermission } from '../../lib/session';
import { formatTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { downloadFile } from '../../lib/download';
import { useServerTable } from '../../lib/use-server-table';
import type { FilterSpec } from '../../lib/use-list-params';
import { AddButton, ConfirmLink, RowLink } from '../../components/ListActions';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { SheetImportDialog } from '../../components/SheetImportDialog';
import { useDischargeOff, useInvalidate, useRentalList, useStoreOptions, useTransition, type RentalListParams, type RentalSort } from './api';
import { formatMoney } from './money';
import { RentalFormModal } from './RentalFormModal';
import { ReturnCheckDialog } from './ReturnCheckDialog';

type Filters = Pick<RentalListParams, 'storeId' | 'state' | 'kind' | 'phone' | 'sn' | 'from' | 'to'>;
const RENTAL_FILTERS: FilterSpec<Filters> = { storeId: 'number', state: 'string', kind: 'string', phone: 'string', sn: 'string', from: 'string', to: 'string' };
type FormFilters = Omit<Filters, 'from' | 'to'> & { range?: [Dayjs, Dayjs] | null };

export const STATE_COLORS: Record<RentalState, string> = {
  reserved: 'purple',
  active: 'processing',
  overdue: 'error',
  returned: 'success',
  lost: 'magenta',
  sold: 'cyan',
  cancelled: 'default',
};

/** /rent/index (rent:list): rentals and sales with their state changes and the return check. */
export default function RentalListPage() {
  const { t, i18n } = useTranslation();
  const canEdit = usePermission('rent:edit');
  const table = useServerTable<Filters, RentalSort>({ sort: 'createdAt', order: 'desc', url: RENTAL_FILTERS });
  const list = useRentalList(table.params);
  const stores = useStoreOptions();
  const transition = useTransition();
  const canCommand = usePermission('rent:command');
  const dischargeOff = useDischargeOff();
  const invalidate = useInvalidate();
  const [importing, setImporting] = useState(false);
  const [adding, setAdding] = useState(false);
  const [returning, setReturning] = useState<RentalDto | null>(null);
  const money = (v: number | null, r: RentalDto) => (v === null ? t('common:empty') : formatMoney(v, r.currency, i18n.language));
  const act = (r: RentalDto, action: Exclude<RentalAction, 'return'>) => {
    const label = t(`rentals:actions.${action}`);
    return (
      <ConfirmLink key={action} testId={`rental-${action}-${r.id}`} danger={action !== 'activate'} title={t('rentals:confirm', { action: label, sn: r.deviceSn })} onConfirm={() => transition.mutateAsync({ id: r.id, action })}>
        {label}
      </ConfirmLink>
    );
  };

  const columns: DataColumn<RentalDto>[] = [
    { title: t('rentals:fields.pack'), dataIndex: 'deviceSn', key: 'deviceSn', width: 150 },
    {
      title: t('rentals:fields.state'),
      dataIndex: 'state',
      ...table.sortable('state', true),
      width: 110,
      phone: true,
      render: (s: RentalState, r) => (
        <Space size={4}>
          <Tag color={STATE_COLORS[s]} data-testid={`rental-state-${r.id}`}>
            {t(`rentals:states.${s}`)}
          </Tag>
          {r.kind === 'sale' && <Tag>{t('rentals:kinds.sale')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('rentals:fields.customer'),
      key: 'customer',
      width: 170,
      phone: true,
      render: (_, r) => (
        <Tooltip title={[r.idCardMasked, r.email].filter(Boolean).join(' · ') || undefined}>
          <span>
            {r.customerName} · {r.customerPhone}
          </span>
        </Tooltip>
      ),
    },
    { title: t('rentals:fields.store'), dataIndex: 'storeName', key: 'storeName', width: 140, optional: true },
    { title: t('rentals:fields.startAt'), dataIndex: 'startAt', ...table.sortable('startAt', true), width: 160, render: (v: string) => formatTime(v) },
    {
      title: t('rentals:fields.dueAt'),
      dataIndex: 'dueAt',
      ...table.sortable('dueAt', true),
      width: 160,
      phone: true,
      render: (v: string | null, r) => (v ? <span style={r.state === 'overdue' ? { color: '#cf1322' } : undefined}>{formatTime(v)}</span> : t('common:empty')),
    },
    {
      title: t('rentals:fields.price'),
      key: 'price',
      width: 150,
      optional: true,
      render: (_, r) => (r.pricePerDayCents !== null ? t('rentals:perDay', { amount: money(r.pricePerDayCents, r) }) : money(r.totalPriceCents, r)),
    },
    { title: t('rentals:fields.deposit'), dataIndex: 'depositCents', key: 'deposit', width: 120, optional: true, render: (v: number, r) => money(v, r) },
    { title: t('rentals:fields.charged'), dataIndex: 'chargedCents', key: 'charged', width: 120, render: (v: number | null, r) => money(v, r) },
    {
      title: t('rentals:fields.position'),
      key: 'position',
      width: 150,
      optional: true,
      // An overdue or lost pack is looked for by its last position and alarms.
      render: (_, r) =>
        r.deviceLng !== null && r.deviceLat !== null ? `${r.deviceLng.toFixed(5)}, ${r.deviceLat.toFixed(5)}` : t('common:empty'),
    },
    {
      title: t('crud:actions'),
      key: 'actions',
      fixed: 'end',
      width: 220,
      render: (_, r) =>
        (canEdit || canCommand) && (
          <Space size={0}>
            {canCommand && r.state === 'lost' && (
              <ConfirmLink testId={`rental-discharge-${r.id}`} danger title={t('rentals:confirmDischarge', { sn: r.deviceSn })} onConfirm={() => dischargeOff.mutateAsync(r.id)}>
                {t('rentals:actions.dischargeOff')}
              </ConfirmLink>
            )}
            {canEdit && r.actions.map((a) =>
              a === 'return' ? (
                <RowLink key={a} testId={`rental-return-${r.id}`} onClick={() => setReturning(r)}>
                  {t('rentals:actions.return')}
                </RowLink>
              ) : (
                act(r, a)
              ),
            )}
          </Space>
        ),
    },
  ];

  const range: [Dayjs, Dayjs] | null = table.filters.from && table.filters.to ? [dayjs(table.filters.from), dayjs(table.filters.to)] : null;
  return (
    <Card title={t('rentals:title')} data-testid="rental-list-page">
      <FilterBar<FormFilters>
        onSearch={({ range: r, ...f }) => table.search({ ...f, from: r?.[0]?.startOf('day').toISOString(), to: r?.[1]?.endOf('day').toISOString() })}
        values={{ ...table.filters, range }}
        extra={
          <>
            <Button
              icon={<DownloadOutlined />}
              onClick={() => {
                const { page: _p, limit: _l, ...q } = table.params;
                void downloadFile(rentalRoutes.export, { ...q, lang: currentLanguage() }, 'rentals.xlsx').catch(() => undefined);
              }}
              data-testid="btn-export"
            >
              {t('rentals:export')}
            </Button>
            {canEdit && (
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="btn-import">
                {t('rentals:import.title')}
              </Button>
            )}
            {canEdit && <AddButton onClick={() => setAdding(true)}>{t('rentals:add')}</AddButton>}
          </>
        }
      >
        <Form.Item name="storeId">
          <Select
            allowClear
            placeholder={t('rentals:fields.store')}
            aria-label={t('rentals:fields.store')}
            style={{ width: 160 }}
            options={(stores.data?.items ?? []).map((s) => ({ value: s.id, label: s.name }))}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
        <Form.Item name="state">
          <Select allowClear placeholder={t('rentals:fields.state')} aria-label={t('rentals:fields.state')} style={{ width: 120 }} options={RENTAL_STATES.map((s) => ({ value: s, label: t(`rentals:states.${s}`) }))} data-testid="filter-state" />
        </Form.Item>
        <Form.Item name="kind">
          <Select allowClear placeholder={t('rentals:fields.kind')} aria-label={t('rentals:fields.kind')} style={{ width: 110 }} options={RENTAL_KINDS.map((k) => ({ value: k, label: t(`rentals:kinds.${k}`) }))} />
        </Form.Item>
        <Form.Item name="phone">
          <Input allowClear maxLength={32} placeholder={t('rentals:filters.phone')} aria-label={t('rentals:filters.phone')} style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="sn">
          <Input allowClear maxLength={64} placeholder={t('rentals:filters.sn')} aria-label={t('rentals:filters.sn')} style={{ width: 150 }} data-testid="filter-sn" />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker aria-label={t('rentals:filters.range')} placeholder={[t('rentals:filters.from'), t('rentals:filters.to')]} />
        </Form.Item>
      </FilterBar>
      <DataTable<RentalDto> tableId="rentals" data-testid="table-rentals" columns={columns} {...table.tableProps(list.data, list.isFetching)} />
      <RentalFormModal open={adding} onClose={() => setAdding(false)} />
      <ReturnCheckDialog rental={returning} onClose={() => setReturning(null)} />
      <SheetImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        endpoints={{ template: rentalRoutes.importTemplate, import: rentalRoutes.import }}
        templateName="rentals-template.xlsx"
        ns="rentals"
        onImported={invalidate}
        testId="rental-import"
      />
    </Card>
  );
}
