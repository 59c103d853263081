import type { ReactNode } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { Section } from '../../../components/Screen';
import { localizePath } from '../../../lib/locale';
import { AdSlot } from '../../ads';
import type { NewsDetail } from '../../../lib/news';
import {
  type Area,
  areaName,
  hostOf,
  isAudio,
  isVideo,
  mainImageOf,
  type NewsItem,
} from '../../../lib/news';
import { useAfterFirstPaint } from '../hooks';
import { mediaPath, NewsBadges, NewsCard, PublisherBadge, TimeAgo } from './NewsCard';
import { NewsImage } from './NewsImage';

export const locationPath = (area: Pick<Area, 'id'>) =>
  `/location/${encodeURIComponent(String(area.id))}`;

/** Plain text content: paragraphs at blank lines. */
function TextBody({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p, i) => (
          <p key={i}>{p}</p>
        ))}
    </>
  );
}

/**
 * The story's text: the server's sanitised HTML (news/detail runs it through the ingest
 * sanitiser; the page's CSP forbids inline script anyway), else plain text, else the
 * summary.
 */
function ArticleBody({ news }: { news: NewsItem }) {
  if (news.content.trim()) {
    if (news.content_type === 'text') {
      return (
        <div className="article__body">
          <TextBody text={news.content} />
        </div>
      );
    }
    return <div className="article__body" dangerouslySetInnerHTML={{ __html: news.content }} />;
  }
  const summary = news.summary || news.description;
  return summary ? (
    <div className="article__body">
      <TextBody text={summary} />
    </div>
  ) : null;
}

/**
 * SPEC §2.10 news detail: the story, its source, its media, its cluster and its place.
 * `body` stands in for the story's text while only a card's preview is known (D201).
 */
export function ArticleView({
  detail,
  body,
  actions,
}: {
  detail: NewsDetail;
  body?: ReactNode;
  /** The reader's own actions (save, react): at the story's end, below its first screen. */
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const { news, media, cluster, related } = detail;
  const publisher = media.name || news.media_name;
  const image = mainImageOf(news);
  const place = news.area_list[0];
  const placeName = place ? areaName(place, locale) : '';
  // "More from" is below the story: rendered once the story is on screen.
  const belowFold = useAfterFirstPaint();
  return (
    <>
      <article className="article" aria-labelledby="article-title">
        <header className="article__head">
          <p className="news-card__kicker">
            {news.category_id && (
              <Link to={localizePath(locale, `/category/${news.category_id}`)}>
                {t(`Category_${news.category_id}`)}
              </Link>
            )}
            <NewsBadges item={news} />
          </p>
          <h1 id="article-title" className="article__title">
            {news.title}
          </h1>
          <p className="article__byline">
            {news.media_id > 0 && (
              <Link
                className="news-card__publisher"
                to={localizePath(locale, mediaPath(news.media_id))}
              >
                <PublisherBadge name={publisher} icon={media.icon_url || news.media_icon} />
              </Link>
            )}
            {news.author && <span>{t('Article_By', { author: news.author })}</span>}
            <TimeAgo ms={news.publish_time} />
          </p>
        </header>

        {isVideo(news) && news.video_url ? (
          <div className="article__media">
            {/* eslint-disable-next-line jsx-a11y/media-has-caption -- feeds carry no captions; the story text is on the page */}
            <video controls preload="metadata" src={news.video_url} poster={image || undefined}>
              <a href={news.video_url}>{t('Article_OpenVideo')}</a>
            </video>
          </div>
        ) : (
          image && <NewsImage src={image} alt={news.title} eager />
        )}
        {isAudio(news) && news.voice_url && (
          <div className="article__media">
            {/* eslint-disable-next-line jsx-a11y/media-has-caption -- feeds carry no transcripts; the story text is on the page */}
            <audio controls preload="none" src={news.voice_url}>
              <a href={news.voice_url}>{t('Article_OpenAudio')}</a>
            </audio>
          </div>
        )}

        {body ?? <ArticleBody news={news} />}

        {news.link_url && (
          <p className="article__original">
            <span>{t('Article_OriginalNote', { host: hostOf(news.link_url) || publisher })}</span>
            <a className="button button--primary" href={news.link_url} rel="noopener">
              {t('Article_ReadOriginal', { publisher: publisher || hostOf(news.link_url) })}
            </a>
          </p>
        )}

        {(news.tags.length > 0 || news.area_list.length > 0) && (
          <dl className="article__facts">
            {news.area_list.length > 0 && (
              <div>
                <dt>{t('Article_Places')}</dt>
                <dd>
                  <ul className="chips">
                    {news.area_list.map((area) => (
                      <li key={String(area.id)}>
                        <Link className="chip" to={localizePath(locale, locationPath(area))}>
                          {areaName(area, locale)}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            )}
            {news.tags.length > 0 && (
              <div>
                <dt>{t('Article_Tags')}</dt>
                <dd>
                  <ul className="chips">
                    {news.tags.map((tag) => (
                      <li key={tag}>
                        <Link
                          className="chip"
                          to={localizePath(locale, `/search/news?q=${encodeURIComponent(tag)}`)}
                        >
                          {tag}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            )}
          </dl>
        )}
        {actions}
      </article>

      {cluster.length > 0 && (
        <Section title={t('Article_FullCoverage')}>
          <ul className="news-list news-list--single">
            {cluster.map((item) => (
              <li key={item.news_id}>
                <NewsCard item={item} variant="compact" />
              </li>
            ))}
          </ul>
        </Section>
      )}
      {/* The article's ad slot (D345): below the story and its coverage, after the first
          paint, so nothing the server wrote moves; only for the story itself, not a preview. */}
      {belowFold && body === undefined && <AdSlot key={news.news_id} placement="article" />}
      {related.length > 0 && belowFold && (
        <Section
          title={placeName ? t('Article_MoreFrom', { place: placeName }) : t('Article_MoreNearby')}
        >
          <ul className="news-list">
            {related.map((item) => (
              <li key={item.news_id}>
                <NewsCard item={item} />
              </li>
            ))}
          </ul>
        </Section>
      )}
    </>
  );
}
