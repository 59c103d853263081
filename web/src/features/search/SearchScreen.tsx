import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from '../../i18n';
import { Link, NavLink, useSearchParams } from 'react-router';
import { useRouteHandle } from '../../lib/routeHandle';
import { EmptyState, Screen, Section } from '../../components/Screen';
import type { MediaSource, NewsItem, MediaPage, SearchNewsPage } from '../../lib/news';
import {
  CATEGORY_IDS,
  Highlight,
  mediaPath,
  NewsCard,
  PagedList,
  useAfterFirstPaint,
  useReader,
  useSearchMedia,
  useSearchNews,
} from '../news';
import { localizePath } from '../../lib/locale';
import { TopTrends } from '../trends';
import { PlaceFilter } from './PlaceFilter';
import { SearchForm } from './SearchForm';
import './search.css';

export const TIME_FILTERS = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000 } as const;
export type TimeFilter = keyof typeof TIME_FILTERS;

/** Time filters move in 10-minute steps, so a query keeps its key (and its cache) a while. */
const SINCE_STEP_MS = 10 * 60_000;

export function sinceFor(time: string | null, now: number = Date.now()): number | undefined {
  if (time !== '24h' && time !== '7d') return undefined;
  return Math.floor(now / SINCE_STEP_MS) * SINCE_STEP_MS - TIME_FILTERS[time];
}

/** SPEC §2.6 search and its children news and media. */
export function SearchScreen({ kind }: { kind: 'news' | 'media' | null }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const [params] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const suffix = q ? `?q=${encodeURIComponent(q)}` : '';
  const action = localizePath(locale, kind === 'media' ? '/search/media' : '/search/news');
  return (
    <Screen>
      <SearchForm key={q} action={action} initial={q} keep={kind === 'media' ? [] : FILTER_KEYS} />
      <nav className="tabs" aria-label={t('Title_search')}>
        <NavLink className="tabs__link" to={localizePath(locale, '/search/news') + suffix}>
          {t('Search_News')}
        </NavLink>
        <NavLink className="tabs__link" to={localizePath(locale, '/search/media') + suffix}>
          {t('Search_Media')}
        </NavLink>
      </nav>
      {kind === 'media' ? <MediaResults q={q} /> : <NewsResults q={q} />}
    </Screen>
  );
}

const FILTER_KEYS = ['city_id', 'city', 'category', 'time'];

function NewsResults({ q }: { q: string }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const reader = useReader();
  // The top trends under an empty search, asked after the first paint (D302).
  const belowFold = useAfterFirstPaint();
  const [params, setParams] = useSearchParams();
  const cityId = params.get('city_id') ?? '';
  const category = params.get('category') ?? '';
  const time = params.get('time') ?? '';
  const query = useSearchNews({
    q,
    city_id: cityId || undefined,
    category: category || undefined,
    since: sinceFor(time),
  });
  const terms = query.data?.pages[0]?.terms ?? [];
  const filtered = Boolean(cityId || category || time);

  // The router's `prev` is the last render's params, so two changes before the next render
  // (two filters picked quickly on a busy device) would lose the first; each change starts
  // from the one before it instead.
  const latest = useRef(params);
  useLayoutEffect(() => {
    latest.current = params;
  }, [params]);
  function update(changes: Record<string, string | null>) {
    const next = new URLSearchParams(latest.current);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    latest.current = next;
    setParams(next, { replace: true });
  }

  return (
    <>
      <div className="search-filters" role="group" aria-label={t('Search_Filters')}>
        <PlaceFilter
          value={cityId}
          label={params.get('city') ?? ''}
          lang={reader.lang}
          country={reader.country}
          onChange={(city) =>
            update({ city_id: city ? String(city.id) : null, city: city ? city.city_show : null })
          }
        />
        <label className="field">
          <span>{t('Search_Category')}</span>
          <select value={category} onChange={(event) => update({ category: event.target.value })}>
            <option value="">{t('Search_AnyCategory')}</option>
            {CATEGORY_IDS.map((id) => (
              <option key={id} value={id}>
                {t(`Category_${id}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('Search_Time')}</span>
          <select value={time} onChange={(event) => update({ time: event.target.value })}>
            <option value="">{t('Search_AnyTime')}</option>
            <option value="24h">{t('Search_Past24h')}</option>
            <option value="7d">{t('Search_Past7d')}</option>
          </select>
        </label>
        {filtered && (
          <button
            type="button"
            className="button"
            onClick={() => update({ city_id: null, city: null, category: null, time: null })}
          >
            {t('Search_ClearFilters')}
          </button>
        )}
      </div>
      <Section title={t('Section_Stories')}>
        {q === '' ? (
          <EmptyState title={t('Search_Start')} hint={t('Search_StartHint')} />
        ) : (
          <PagedList<NewsItem, SearchNewsPage>
            query={query}
            itemKey={(item) => item.news_id}
            renderItem={(item) => <NewsCard item={item} terms={terms} />}
            empty={
              <div className="empty">
                <p className="empty__title">{t('Search_NoNews', { q })}</p>
                <ul className="search-tips">
                  <li>{t('Search_TipSpelling')}</li>
                  <li>{t('Search_TipFewer')}</li>
                  {filtered && <li>{t('Search_TipFilters')}</li>}
                </ul>
                <p className="search-tips__actions">
                  {filtered && (
                    <button
                      type="button"
                      className="button"
                      onClick={() =>
                        update({ city_id: null, city: null, category: null, time: null })
                      }
                    >
                      {t('Search_ClearFilters')}
                    </button>
                  )}
                  <Link
                    className="button"
                    to={`${localizePath(locale, '/search/media')}?q=${encodeURIComponent(q)}`}
                  >
                    {t('Search_TryPublishers')}
                  </Link>
                  <Link className="button" to={localizePath(locale, '/latest')}>
                    {t('Search_SeeLatest')}
                  </Link>
                </p>
              </div>
            }
          />
        )}
      </Section>
      {q === '' && belowFold && <TopTrends />}
    </>
  );
}

function MediaResults({ q }: { q: string }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const query = useSearchMedia(q);
  const terms = q.split(/\s+/).filter(Boolean);
  return (
    <Section title={t('Section_Publishers')}>
      {q === '' ? (
        <EmptyState title={t('Search_StartMedia')} hint={t('Search_StartMediaHint')} />
      ) : (
        <PagedList<MediaSource, MediaPage>
          query={query}
          itemKey={(media) => media.media_id}
          listClassName="news-list news-list--single"
          renderItem={(media) => (
            <article className="media-row">
              <div className="media-row__text">
                <h3 className="news-card__title">
                  <Link
                    className="news-card__link"
                    to={localizePath(locale, mediaPath(media.media_id))}
                  >
                    <span className="media-row__name">
                      {media.icon_url ? (
                        <img
                          className="publisher-icon"
                          src={media.icon_url}
                          alt=""
                          width={18}
                          height={18}
                          loading="lazy"
                        />
                      ) : (
                        <span className="publisher-icon publisher-icon--initial" aria-hidden="true">
                          {media.name.slice(0, 1).toUpperCase()}
                        </span>
                      )}
                      <Highlight text={media.name} terms={terms} />
                    </span>
                  </Link>
                </h3>
                <p className="media-row__meta">
                  {[media.area3, media.area2, media.area1 ? t(`Country_${media.area1}`) : '']
                    .filter(Boolean)
                    .join(', ')}
                  {media.item_count > 0 && ` · ${t('Media_Stories', { count: media.item_count })}`}
                </p>
              </div>
            </article>
          )}
          empty={<EmptyState title={t('Search_NoMedia', { q })} hint={t('Search_NoMediaHint')} />}
        />
      )}
    </Section>
  );
}
