import { useEffect, useState } from 'react';
import { Button, Card, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import { DownloadOutlined, ShoppingCartOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { CARD_CARRIERS, CARD_STATUSES, cardRoutes } from '@iot/contract/plain';
import type { CardDto, CardStatus } from '@iot/contract';
import { usePermission } from '../../lib/session';
import { currentLanguage } from '../../lib/i18n';
import { downloadFile } from '../../lib/download';
import { useServerTable } from '../../lib/use-server-table';
import type { FilterSpec } from '../../lib/use-list-params';
import { AddButton, DeleteLink, RowLink } from '../../components/ListActions';
import { FilterBar } from '../../components/FilterBar';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { useCardList, useDeleteCards, useInvalidateCards, type CardListParams, type CardSort } from './api';
import { CardDrawer } from './CardDrawer';
import { CardFormModal } from './CardFormModal';
import { SheetImportDialog } from '../../components/SheetImportDialog';
import { OrderFormModal } from './OrderFormModal';

type Filters = Pick<CardListParams, 'q' | 'status' | 'carrier' | 'expiringWithin'>;
/** The list's filters as its address spells them. */
const CARD_FILTERS: FilterSpec<Filters> = { q: 'string', status: 'string', carrier: 'string', expiringWithin: 'number' };

export const STATUS_COLORS: Record<CardStatus, string> = {
  inventory: 'default',
  testing: 'processing',
  active: 'success',
  suspended: 'warning',
  deactivated: 'error',
};

/** Days left until expiry, coloured: expired red, within 30 days orange. */
export function DaysLeft({ card }: { card: Pick<CardDto, 'expiresAt' | 'daysLeft'> }) {
  const { t } = useTranslation();
  if (!card.expiresAt || card.daysLeft === null) return <>{t('common:empty')}</>;
  const color = card.daysLeft < 0 ? 'red' : card.daysLeft <= 30 ? 'orange' : 'default';
  return (
    <Space size={4}>
      <span data-testid="card-expiry">{card.expiresAt}</span>
      <Tag color={color}>{card.daysLeft < 0 ? t('cards:expired') : t('cards:daysLeft', { count: card.daysLeft })}</Tag>
    </Space>
  );
}

/** /card/index (card:list): SIM cards with server-side paging, filters, search, import and export. */
export default function CardListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const canEdit = usePermission('card:edit');
  const canOrder = usePermission('card:order');
  const table = useServerTable<Filters, CardSort>({ sort: 'createdAt', order: 'desc', url: CARD_FILTERS });
  // The expiry e-mail links to `?expiring=<days>`: the same list in the list's own terms, soonest first.
  const expiring = Number(params.get('expiring')) || undefined;
  useEffect(() => {
    if (!expiring) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('expiring');
        next.set('expiringWithin', String(expiring));
        next.set('sort', 'expiresAt');
        next.set('order', 'asc');
        return next;
      },
      { replace: true },
    );
  }, [expiring, setParams]);
  const list = useCardList(table.params);
  const remove = useDeleteCards();
  const invalidate = useInvalidateCards();
  const [form, setForm] = useState<{ open: boolean; card: CardDto | null }>({ open: false, card: null });
  const [details, setDetails] = useState<number | undefined>();
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [ordering, setOrdering] = useState<number[] | null>(null);

  const columns: DataColumn<CardDto>[] = [
    {
      title: t('cards:fields.iccid'),
      dataIndex: 'iccid',
      ...table.sortable('iccid', true),
      key: 'iccid',
      width: 190,
      render: (v: string, c) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setDetails(c.id)} data-testid={`card-open-${c.iccid}`}>
          {v}
        </Button>
      ),
    },
    { title: t('cards:fields.msisdn'), dataIndex: 'msisdn', ...table.sortable('msisdn', true), key: 'msisdn', width: 130, phone: true },
    { title: t('cards:fields.carrier'), dataIndex: 'carrier', key: 'carrier', width: 110, optional: true, render: (v: string) => t(`cards:carriers.${v}`) },
    { title: t('cards:fields.plan'), dataIndex: 'plan', key: 'plan', width: 120, optional: true },
    {
      title: t('cards:fields.status'),
      dataIndex: 'status',
      ...table.sortable('status', true),
      key: 'status',
      width: 110,
      phone: true,
      render: (s: CardStatus) => <Tag color={STATUS_COLORS[s]}>{t(`cards:status.${s}`)}</Tag>,
    },
    {
      title: t('cards:fields.expiresAt'),
      dataIndex: 'expiresAt',
      ...table.sortable('expiresAt', true),
      key: 'expiresAt',
      width: 190,
      phone: true,
      render: (_: unknown, c) => <DaysLeft card={c} />,
    },
    {
      title: t('cards:columns.data'),
      key: 'data',
      width: 150,
      optional: true,
      render: (_, c) => `${c.dataUsedMb} / ${c.dataAllowanceMb} MB`,
    },
    {
      title: t('cards:fields.device'),
      key: 'device',
      width: 150,
      optional: true,
      render: (_, c) =>
        c.deviceId ? (
          <Tooltip title={c.deviceSn}>
            <Button type="link" size="small" style={{ padding: 0 }} onClick={() => navigate(`/project/info?id=${c.deviceId}`)}>
              {c.deviceName}
            </Button>
          </Tooltip>
        ) : (
          t('common:empty')
        ),
    },
    { title: t('cards:fields.project'), dataIndex: 'projectName', key: 'projectName', width: 140, optional: true, render: (v: string | null) => v ?? t('common:empty') },
    {
      title: t('crud:actions'),
      key: 'actions',
      fixed: 'end',
      width: 280,
      render: (_, c) => (
        <Space size={0}>
          <RowLink testId={`card-details-${c.id}`} onClick={() => setDetails(c.id)}>
            {t('cards:details')}
          </RowLink>
          {canOrder && (
            <RowLink testId={`card-renew-${c.id}`} onClick={() => setOrdering([c.id])}>
              {t('cards:renew')}
            </RowLink>
          )}
          {/* The server's `can`: a card of a project only shared with the caller is read-only. */}
          {c.can.edit && (
            <RowLink testId={`card-edit-${c.id}`} onClick={() => setForm({ open: true, card: c })}>
              {t('crud:edit')}
            </RowLink>
          )}
          {c.can.delete && (
            <DeleteLink testId={`card-delete-${c.id}`} title={t('cards:deleteConfirm', { iccid: c.iccid })} onConfirm={() => remove.mutateAsync([c.id])} />
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('cards:title')} data-testid="card-list-page">
      <FilterBar<Filters>
        onSearch={(f) => table.search(f)}
        values={table.filters}
        extra={
          <>
            {canOrder && (
              <Button icon={<ShoppingCartOutlined />} disabled={selected.length === 0} onClick={() => setOrdering(selected)} data-testid="btn-renew-selected">
                {t('cards:renewSelected', { count: selected.length })}
              </Button>
            )}
            <Button
              icon={<DownloadOutlined />}
              onClick={() => {
                const { page: _p, limit: _l, ...q } = table.params;
                void downloadFile(cardRoutes.export, { ...q, lang: currentLanguage() }, 'sim-cards.xlsx').catch(() => undefined);
              }}
              data-testid="btn-export"
            >
              {t('cards:export')}
            </Button>
            {canEdit && (
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="btn-import">
                {t('cards:import.title')}
              </Button>
            )}
            {canEdit && <AddButton onClick={() => setForm({ open: true, card: null })}>{t('cards:addCard')}</AddButton>}
          </>
        }
      >
        <Form.Item name="q">
          <Input allowClear maxLength={64} placeholder={t('cards:filters.q')} aria-label={t('cards:filters.q')} style={{ width: 320 }} data-testid="filter-q" />
        </Form.Item>
        <Form.Item name="status">
          <Select allowClear placeholder={t('cards:fields.status')} aria-label={t('cards:fields.status')} style={{ width: 130 }} options={CARD_STATUSES.map((s) => ({ value: s, label: t(`cards:status.${s}`) }))} />
        </Form.Item>
        <Form.Item name="carrier">
          <Select allowClear placeholder={t('cards:fields.carrier')} aria-label={t('cards:fields.carrier')} style={{ width: 140 }} options={CARD_CARRIERS.map((c) => ({ value: c, label: t(`cards:carriers.${c}`) }))} />
        </Form.Item>
        <Form.Item name="expiringWithin">
          <Select
            allowClear
            placeholder={t('cards:filters.expiring')}
            aria-label={t('cards:filters.expiring')}
            style={{ width: 170 }}
            data-testid="filter-expiring"
            options={[7, 30, 60, 90].map((d) => ({ value: d, label: t('cards:filters.expiringWithin', { count: d }) }))}
          />
        </Form.Item>
      </FilterBar>
      <DataTable<CardDto>
        tableId="cards"
        data-testid="table-cards"
        columns={columns}
        rowSelection={canOrder ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
        {...table.tableProps(list.data, list.isFetching)}
      />
      <CardFormModal open={form.open} card={form.card} onClose={() => setForm({ open: false, card: null })} />
      <CardDrawer id={details} onClose={() => setDetails(undefined)} />
      <SheetImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        endpoints={{ template: cardRoutes.importTemplate, import: cardRoutes.import }}
        templateName="sim-cards-template.xlsx"
        ns="cards"
        onImported={invalidate}
        testId="card-import"
      />
      <OrderFormModal
        cardIds={ordering}
        plans={list.data?.items.filter((c) => ordering?.includes(c.id)).map((c) => c.plan)}
        onClose={() => setOrdering(null)}
        onCreated={(id) => {
          setOrdering(null);
          setSelected([]);
          navigate(`/card/orderManagement?pay=${id}`);
        }}
      />
    </Card>
  );
}
