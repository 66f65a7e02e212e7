/**
 * The dashboard's charts, drawn with the console's ECharts build (lib/echarts.tsx, as the device
 * details' history): this module is loaded lazily (`Chart.tsx`), so the chart code reaches the
 * browser only when a chart is drawn. Each chart is hidden from assistive technology: its card
 * carries the same figures as a table (`FigureTable`).
 */
import { useMemo } from 'react';
import { EChart, type ChartOption } from '../../lib/echarts';
import { usePrefersReducedMotion } from '../../lib/reduced-motion';

export interface Series {
  name: string;
  color: string;
  values: (number | null)[];
}

/** Bars per category (a day, a SOC bucket), stacked when `stacked`. */
export default function BarChart({ categories, series, stacked, height = 260, testId }: { categories: string[]; series: Series[]; stacked?: boolean; height?: number; testId?: string }) {
  const still = usePrefersReducedMotion();
  const option = useMemo<ChartOption>(
    () => ({
      animation: !still,
      grid: { left: 8, right: 8, top: 32, bottom: 8, containLabel: true },
      legend: series.length > 1 ? { top: 0, type: 'scroll' } : undefined,
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'category', data: categories, axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', minInterval: 1 },
      series: series.map((s) => ({
        type: 'bar',
        name: s.name,
        data: s.values,
        stack: stacked ? 'total' : undefined,
        itemStyle: { color: s.color },
        barMaxWidth: 28,
      })),
    }),
    [categories, series, stacked, still],
  );
  return (
    <div aria-hidden="true">
      <EChart option={option} height={height} testId={testId} />
    </div>
  );
}
