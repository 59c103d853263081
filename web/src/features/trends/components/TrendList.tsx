import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/Screen';
import { ErrorState, ListSkeleton, NewsCard, useReader } from '../../news';
import { useTrends } from '../hooks';
import { Sparkline } from './Sparkline';

export const trendPath = (key: string) => `/realtime-trends?trend=${encodeURIComponent(key)}`;

/** The trends, each with its sparkline; opening one lists its stories. */
export function TrendList({ size, compact = false }: { size?: number; compact?: boolean }) {
  const { t } = useTranslation();
  const query = useTrends({ size, stories: 0 });
  const reader = useReader();
  if (query.isPending) return <ListSkeleton count={compact ? 2 : 4} label={t('Trends_Loading')} />;
  if (query.isError)
    return (
      <ErrorState
        error={query.error}
        onRetry={() => void query.refetch()}
        title={t('Trends_Error')}
        compact={compact}
      />
    );
  const trends = query.data.trends;
  if (trends.length === 0)
    return compact ? null : <EmptyState title={t('Empty_Trends')} hint={t('Empty_TrendsHint')} />;
  const list = (
    <ol className={compact ? 'trend-list trend-list--compact' : 'trend-list'}>
      {trends.map((trend) => (
        <li key={trend.key} className="trend">
          <Link className="trend__phrase" to={trendPath(trend.key)}>
            {trend.phrase}
          </Link>
          <span className="trend__meta">
            {t('Trends_Meta', { recent: trend.recent, publishers: trend.publishers })}
          </span>
          <Sparkline counts={trend.sparkline} />
        </li>
      ))}
    </ol>
  );
  if (compact) return list;
  // Whose trends these are: the state's own when it had enough news (D301), else the country's.
  const where =
    query.data.scope === 'state'
      ? t('Trends_InState', { state: reader.adminCode })
      : t('Trends_InCountry', { country: t(`Country_${reader.country}`) });
  return (
    <>
      <p className="trend-list__scope">{where}</p>
      {list}
    </>
  );
}

/** One trend's stories, newest first. */
export function TrendStories({ trendKey }: { trendKey: string }) {
  const { t } = useTranslation();
  const query = useTrends({ trendKey, stories: 30 });
  const back = (
    <p>
      <Link to="/realtime-trends">{t('Trends_Back')}</Link>
    </p>
  );
  if (query.isPending) return <ListSkeleton label={t('Trends_Loading')} />;
  if (query.isError)
    return (
      <ErrorState
        error={query.error}
        onRetry={() => void query.refetch()}
        title={t('Trends_Error')}
      />
    );
  const trend = query.data.trends[0];
  if (!trend)
    return (
      <>
        <EmptyState title={t('Trends_Gone')} />
        {back}
      </>
    );
  return (
    <section aria-labelledby="trend-title">
      <h2 id="trend-title" className="trend__title">
        {t('Trends_StoriesAbout', { phrase: trend.phrase })}
      </h2>
      <p className="trend__meta">
        {t('Trends_Meta', { recent: trend.recent, publishers: trend.publishers })}{' '}
        <Sparkline counts={trend.sparkline} />
      </p>
      <ul className="news-list">
        {trend.list.map((item) => (
          <li key={item.news_id}>
            <NewsCard item={item} />
          </li>
        ))}
      </ul>
      {back}
    </section>
  );
}

/**
 * The top trends for home and search: shown only once there are some (nothing while
 * loading or on an error, so the page around it does not move or alarm).
 */
export function TopTrends({ size = 5 }: { size?: number }) {
  const { t } = useTranslation();
  const query = useTrends({ size, stories: 0 });
  const trends = query.data?.trends ?? [];
  if (trends.length === 0) return null;
  return (
    <section className="section top-trends" aria-labelledby="top-trends-title">
      <h2 id="top-trends-title" className="section__title">
        {t('Trends_Now')}
      </h2>
      <ol className="trend-list trend-list--compact">
        {trends.map((trend) => (
          <li key={trend.key} className="trend">
            <Link className="trend__phrase" to={trendPath(trend.key)}>
              {trend.phrase}
            </Link>
            <span className="trend__meta">
              {t('Trends_Meta', { recent: trend.recent, publishers: trend.publishers })}
            </span>
            <Sparkline counts={trend.sparkline} />
          </li>
        ))}
      </ol>
      <p>
        <Link to="/realtime-trends">{t('Trends_More')}</Link>
      </p>
    </section>
  );
}
