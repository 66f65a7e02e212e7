import { useState } from 'react';
import { Card, Empty, Row, Segmented, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { REVENUE_PERIODS, STOCK_STATES, type RevenuePeriod } from '@iot/contract/plain';
import type { Currency, RentalSummary } from '@iot/contract';
import { useSummary } from './api';
import { Figure } from './Figure';
import { formatMoney } from './money';

const tz = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Revenue rows pivoted: one row per bucket, one column per currency. */
function pivot(revenue: RentalSummary['revenue']) {
  const currencies = [...new Set(revenue.map((r) => r.currency))].sort() as Currency[];
  const byBucket = new Map<string, { bucket: string; count: number } & Partial<Record<Currency, number>>>();
  for (const r of revenue) {
    const row = byBucket.get(r.bucket) ?? { bucket: r.bucket, count: 0 };
    row[r.currency] = r.chargedCents;
    row.count += r.count;
    byBucket.set(r.bucket, row);
  }
  return { currencies, rows: [...byBucket.values()].reverse() };
}

/**
 * /rent/overview (rent:overview), the agent view: the stores of the caller's subtree, their stock
 * by state, the open rentals (each figure opens the list it counts) and what they earned per day,
 * week or month in the browser's time zone.
 */
export default function OverviewPage() {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<RevenuePeriod>('day');
  const summary = useSummary({ period, tz: tz() });
  const s = summary.data;
  const { currencies, rows } = pivot(s?.revenue ?? []);
  const figure = (title: string, value: number | undefined, to?: string, testId?: string) => <Figure key={title} title={title} value={value} to={to} testId={testId} />;
  return (
    <div data-testid="rental-overview-page">
      <Card title={t('rentals:overview.title')} style={{ marginBottom: 16 }}>
        <Row gutter={[12, 12]}>
          {figure(t('rentals:overview.stores'), s?.stores.total, '/store/index', 'figure-stores')}
          {figure(t('rentals:overview.openStores'), s?.stores.open, '/store/index?status=open')}
          {figure(t('rentals:states.reserved'), s?.rentals.reserved, '/rent/index?state=reserved')}
          {figure(t('rentals:states.active'), s?.rentals.active, '/rent/index?state=active', 'figure-active')}
          {figure(t('rentals:states.overdue'), s?.rentals.overdue, '/rent/index?state=overdue', 'figure-overdue')}
        </Row>
      </Card>
      <Card title={t('rentals:overview.stock', { count: s?.stock.total ?? 0 })} style={{ marginBottom: 16 }}>
        <Row gutter={[12, 12]}>{STOCK_STATES.map((st) => figure(t(`rentals:stockStates.${st}`), s?.stock[st], undefined, `figure-stock-${st}`))}</Row>
      </Card>
      <Card
        title={t('rentals:overview.revenue')}
        extra={
          <Segmented<RevenuePeriod>
            value={period}
            onChange={setPeriod}
            options={REVENUE_PERIODS.map((p) => ({ value: p, label: t(`rentals:overview.periods.${p}`) }))}
            aria-label={t('rentals:overview.period')}
            data-testid="revenue-period"
          />
        }
      >
        {rows.length === 0 ? (
          <Empty description={t('rentals:overview.noRevenue')} />
        ) : (
          <Table
            size="small"
            rowKey="bucket"
            pagination={false}
            data-testid="table-revenue"
            dataSource={rows}
            scroll={{ x: true }}
            columns={[
              { title: t(`rentals:overview.bucket.${period}`), dataIndex: 'bucket', key: 'bucket' },
              { title: t('rentals:overview.count'), dataIndex: 'count', key: 'count' },
              ...currencies.map((c) => ({
                title: c,
                key: c,
                render: (_: unknown, r: (typeof rows)[number]) => (r[c] === undefined ? t('common:empty') : formatMoney(r[c]!, c, i18n.language)),
              })),
            ]}
          />
        )}
      </Card>
    </div>
  );
}
