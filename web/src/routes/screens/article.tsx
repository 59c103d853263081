import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { usePageHead } from '../../components/Screen';
import {
  ArticleView,
  dataFetchStatus,
  ErrorState,
  isNotFound,
  MissingState,
  useNewsDetail,
} from '../../features/news';
import { toNumber } from '../../lib/parse';

/** The article's shape while it loads: no jump when it arrives. */
export function ArticleSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="article-skeleton" role="status">
      <span className="visually-hidden">{t('Article_Loading')}</span>
      <span className="skeleton-line skeleton-line--short" aria-hidden="true" />
      <span className="skeleton-line" aria-hidden="true" />
      <span className="skeleton-line skeleton-line--meta" aria-hidden="true" />
      <span className="news-image skeleton-box" aria-hidden="true" />
    </div>
  );
}

/** SPEC §2.10 news detail; a missing article is a real not-found state. */
export default function Article() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const newsId = /^\d+$/.test(id) ? toNumber(id) : 0;
  const query = useNewsDetail(newsId);
  const status = dataFetchStatus(query);
  const news = query.data?.news;
  const missing = newsId === 0 || (status === 'error' && isNotFound(query.error));
  usePageHead(
    news?.title || (missing ? t('Missing_Article') : t('Title_article')),
    news?.summary || news?.description || t('Desc_article'),
  );
  if (missing) {
    return <MissingState title={t('Missing_Article')} hint={t('Missing_ArticleHint')} />;
  }
  return (
    <div className="screen">
      {status === 'success' && query.data ? (
        <ArticleView detail={query.data} />
      ) : status === 'error' ? (
        <ErrorState
          error={query.error}
          title={t('Article_ErrorTitle')}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ArticleSkeleton />
      )}
    </div>
  );
}
