import { useTranslation } from '../../i18n';
import { Link, useParams } from 'react-router';
import { useRouteHandle } from '../../lib/routeHandle';
import { usePageHead } from '../../components/Screen';
import { mainImageOf } from '../../lib/news';
import {
  articlePath,
  dataFetchStatus,
  ErrorState,
  isNotFound,
  MissingState,
  NewsImage,
  PublisherBadge,
  TimeAgo,
  useNewsDetail,
} from '../../features/news';
import { localizePath } from '../../lib/locale';
import { ArticleSkeleton } from './article';

/** `/share/1042`, `/share/article/1042`, `/share/1042-council-votes` → 1042 (D105). */
export function sharedNewsId(path: string): number {
  const match = /(?:^|\/)(\d+)(?=$|[-/.?#])/.exec(path);
  return match ? Number(match[1]) : 0;
}

/** SPEC §2.11 shared item: the story's card, leading into the article. */
export default function Share() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const params = useParams();
  const newsId = sharedNewsId(params['*'] ?? '');
  const query = useNewsDetail(newsId);
  const status = dataFetchStatus(query);
  const news = query.data?.news;
  const missing = newsId === 0 || (status === 'error' && isNotFound(query.error));
  usePageHead(news?.title || t('Title_share'), news?.summary || t('Desc_share'));
  if (missing) {
    return <MissingState title={t('Missing_Article')} hint={t('Missing_ArticleHint')} />;
  }
  if (status === 'error') {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (!news || !query.data) return <ArticleSkeleton />;
  const image = mainImageOf(news);
  const summary = news.summary || news.description;
  const to = localizePath(locale, articlePath(news.news_id));
  return (
    <div className="screen">
      <p className="screen__lede">{t('Share_Lede')}</p>
      <article className="share-card" aria-labelledby="share-title">
        {image && <NewsImage src={image} alt="" />}
        <h1 id="share-title" className="article__title">
          {news.title}
        </h1>
        <p className="article__byline">
          <PublisherBadge name={query.data.media.name || news.media_name} icon={news.media_icon} />
          <TimeAgo ms={news.publish_time} />
        </p>
        {summary && <p>{summary}</p>}
        <p>
          <Link className="button button--primary" to={to}>
            {t('Share_Read')}
          </Link>
        </p>
      </article>
    </div>
  );
}
