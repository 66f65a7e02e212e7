import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { ChartBoundary } from './parts';
import type { Series } from './charts';

export type { Series };

const BarChart = lazy(() => import('./charts'));

/**
 * A bar chart with its figures as a table for screen readers (the chart itself is hidden from
 * them). The chart code loads on first use; a chart that cannot draw leaves the table.
 */
export function Chart({
  caption,
  categories,
  series,
  stacked,
  height = 260,
  testId,
}: {
  caption: string;
  categories: string[];
  series: Series[];
  stacked?: boolean;
  height?: number;
  testId: string;
}) {
  return (
    <figure style={{ margin: 0 }} data-testid={testId}>
      <ChartBoundary>
        <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height }} />}>
          <BarChart categories={categories} series={series} stacked={stacked} height={height} testId={`${testId}-canvas`} />
        </Suspense>
      </ChartBoundary>
      <FigureTable caption={caption} categories={categories} series={series} testId={`${testId}-table`} />
    </figure>
  );
}

/** The chart's figures, visually hidden: one row per category, one column per series. */
function FigureTable({ caption, categories, series, testId }: { caption: string; categories: string[]; series: Series[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <table className="visually-hidden" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <td />
          {series.map((s) => (
            <th key={s.name} scope="col">
              {s.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {categories.map((c, i) => (
          <tr key={c}>
            <th scope="row">{c}</th>
            {series.map((s) => (
              <td key={s.name}>{s.values[i] === null || s.values[i] === undefined ? t('dashboard:unknown') : formatNumber(s.values[i])}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
