import { useTranslation } from 'react-i18next';
import { formatCount, formatNumber } from '../../lib/format';

/** One series of a bar chart: its name (legend, table header), colour and a value per category. */
export interface Series {
  name: string;
  color: string;
  values: (number | null)[];
}

/** Labels under the bars at most this many: 30 days show every fifth day. */
const MAX_LABELS = 8;

/**
 * A bar chart drawn with HTML boxes (no chart library: ECharts would add ~200 KB gzip to the first
 * signed-in page, past its budget; decision 0024), stacked or side by side, with its figures as a
 * table for screen readers (the drawing itself is hidden from them). A bar's figures show on hover.
 */
export function Chart({
  caption,
  categories,
  series,
  stacked,
  height = 200,
  testId,
}: {
  caption: string;
  categories: string[];
  series: Series[];
  stacked?: boolean;
  height?: number;
  testId: string;
}) {
  const { t } = useTranslation();
  const totals = categories.map((_, i) => series.map((s) => s.values[i] ?? 0));
  const max = Math.max(1, ...totals.map((v) => (stacked ? v.reduce((a, b) => a + b, 0) : Math.max(...v))));
  const every = Math.ceil(categories.length / MAX_LABELS);
  const shown = (v: number | null | undefined) => (v === null || v === undefined ? t('dashboard:unknown') : formatNumber(v));
  return (
    <figure className="dash-chart" data-testid={testId}>
      <div aria-hidden="true" data-testid={`${testId}-drawing`}>
        {series.length > 1 && (
          <div className="dash-chart-legend">
            {series.map((s) => (
              <span key={s.name}>
                <i style={{ background: s.color }} />
                {s.name}
              </span>
            ))}
          </div>
        )}
        <div className="dash-chart-plot" style={{ height }}>
          <div className="dash-chart-axis">
            <span>{formatCount(max)}</span>
            <span>0</span>
          </div>
          <div className="dash-chart-cols">
            {categories.map((c, i) => (
              <div
                key={c}
                className="dash-chart-col"
                title={`${c}\n${series.map((s) => `${s.name}: ${shown(s.values[i])}`).join('\n')}`}
              >
                <div className={stacked ? 'dash-chart-stack' : 'dash-chart-group'}>
                  {series.map((s) => (
                    <span key={s.name} style={{ height: `${((s.values[i] ?? 0) / max) * 100}%`, background: s.color }} />
                  ))}
                </div>
                <span className="dash-chart-label">{i % every === 0 || i === categories.length - 1 ? c : '\u00A0'}</span>
              </div>
            ))}
          </div>
        </div>
      </div>
      <table className="visually-hidden" data-testid={`${testId}-table`}>
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
                <td key={s.name}>{shown(s.values[i])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
