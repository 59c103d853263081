import { useId } from 'react';
import { useTranslation } from '../../../i18n';
import type { UsageDay } from '../api';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { start: 44, end: 12, top: 12, bottom: 28 };
/** Dots on each day while they stay apart. */
const MAX_DOTS = 31;

/** 1, 2, 5 × 10ⁿ at or above `value`, so the axis reads round numbers. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const SERIES = [
  { field: 'readers', key: 'Admin_Readers', className: 'admin-chart__readers' },
  { field: 'page_views', key: 'Admin_PageViews', className: 'admin-chart__views' },
] as const;

/**
 * Readers and page views per day as an inline SVG (no chart library, D343); its text
 * alternative sums it up and the table under it has every day's numbers.
 */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const number = new Intl.NumberFormat(i18n.language);
  const top = niceCeiling(Math.max(0, ...days.map((d) => Math.max(d.readers, d.page_views))));
  const plotWidth = WIDTH - PAD.start - PAD.end;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) =>
    PAD.start + (days.length <= 1 ? plotWidth / 2 : (i * plotWidth) / (days.length - 1));
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const ticks = [0, top / 2, top];
  const labelled =
    days.length <= 2 ? days.map((_, i) => i) : [0, Math.floor(days.length / 2), days.length - 1];

  const totalViews = days.reduce((sum, d) => sum + d.page_views, 0);
  const busiest = days.reduce<UsageDay | undefined>(
    (best, d) => (!best || d.readers > best.readers ? d : best),
    undefined,
  );
  const summary = t('Admin_ChartSummary', {
    from: days[0]?.date ?? '',
    to: days.at(-1)?.date ?? '',
    views: number.format(totalViews),
    day: busiest?.date ?? '',
    readers: number.format(busiest?.readers ?? 0),
  });

  return (
    <figure className="admin-chart">
      <svg
        className="admin-chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
      >
        <title id={titleId}>{summary}</title>
        {ticks.map((tick) => (
          <g key={tick} className="admin-chart__tick">
            <line x1={PAD.start} x2={WIDTH - PAD.end} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.start - 6} y={y(tick)} textAnchor="end" dominantBaseline="middle">
              {number.format(tick)}
            </text>
          </g>
        ))}
        {labelled.map((i) => (
          <text
            key={i}
            className="admin-chart__date"
            x={x(i)}
            y={HEIGHT - 8}
            textAnchor={
              i === 0 && days.length > 1
                ? 'start'
                : i === days.length - 1 && days.length > 1
                  ? 'end'
                  : 'middle'
            }
          >
            {days[i].date}
          </text>
        ))}
        {SERIES.map((series) => (
          <g key={series.field} className={series.className}>
            <polyline
              fill="none"
              points={days.map((d, i) => `${x(i)},${y(d[series.field])}`).join(' ')}
            />
            {days.length <= MAX_DOTS &&
              days.map((d, i) => (
                <circle key={d.date} cx={x(i)} cy={y(d[series.field])} r={3}>
                  <title>{`${d.date}: ${number.format(d[series.field])} ${t(series.key)}`}</title>
                </circle>
              ))}
          </g>
        ))}
      </svg>
      <figcaption className="admin-chart__legend">
        {SERIES.map((series) => (
          <span key={series.field} className={`admin-chart__key ${series.className}`}>
            {t(series.key)}
          </span>
        ))}
      </figcaption>
      <details className="admin-chart__numbers">
        <summary>{t('Admin_DailyNumbers')}</summary>
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption>{t('Admin_DailyCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('Admin_Date')}</th>
                <th scope="col" className="admin-table__number">
                  {t('Admin_Readers')}
                </th>
                <th scope="col" className="admin-table__number">
                  {t('Admin_PageViews')}
                </th>
                <th scope="col" className="admin-table__number">
                  {t('Admin_Events')}
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{d.date}</th>
                  <td className="admin-table__number">{number.format(d.readers)}</td>
                  <td className="admin-table__number">{number.format(d.page_views)}</td>
                  <td className="admin-table__number">{number.format(d.events)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
