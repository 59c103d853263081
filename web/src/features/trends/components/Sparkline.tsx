import { useTranslation } from '../../../i18n';

const WIDTH = 96;
const HEIGHT = 24;

/** Stories per hour over the last day as a small line, with the counts in words. */
export function Sparkline({ counts }: { counts: readonly number[] }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...counts);
  const step = counts.length > 1 ? WIDTH / (counts.length - 1) : WIDTH;
  const points = counts
    .map((n, i) => `${(i * step).toFixed(1)},${(HEIGHT - 2 - (n / max) * (HEIGHT - 4)).toFixed(1)}`)
    .join(' ');
  const label = t('Trends_Sparkline', {
    total: counts.reduce((a, b) => a + b, 0),
    counts: counts.join(', '),
  });
  return (
    <svg
      className="trend-sparkline"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
    >
      <title>{label}</title>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
