import { useTranslation } from '../../i18n';
import { useLocation, useParams } from 'react-router';
import { usePageHead } from '../../components/Screen';
import { normalizeMediaSource, type NewsItem } from '../../lib/news';
import {
  articlePreview,
  ArticleView,
  dataFetchStatus,
  ErrorState,
  isNotFound,
  MissingState,
  useNewsDetail,
} from '../../features/news';
import { ArticleActions, useRecordRead } from '../../features/reader';
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

/** The story's text while it loads, below what the card already showed (D201). */
function BodySkeleton() {
  const { t } = useTranslation();
  return (
    <div className="article__body article-skeleton" role="status" aria-busy="true">
      <span className="visually-hidden">{t('Article_LoadingText')}</span>
      <span className="skeleton-line" aria-hidden="true" />
      <span className="skeleton-line" aria-hidden="true" />
      <span className="skeleton-line skeleton-line--short" aria-hidden="true" />
    </div>
  );
}

/** A card's story as a detail with nothing else known yet. */
const previewDetail = (news: NewsItem) => ({
  news,
  media: normalizeMediaSource({}),
  cluster: [],
  related: [],
});

/**
 * SPEC §2.10 news detail; a missing article is a real not-found state. Opened from a
 * card, what the card showed is on screen at once and the text follows (D201).
 */
export default function Article() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const newsId = /^\d+$/.test(id) ? toNumber(id) : 0;
  const query = useNewsDetail(newsId);
  const status = dataFetchStatus(query);
  const preview = articlePreview(useLocation().state, newsId);
  const news = query.data?.news ?? preview ?? undefined;
  const missing = newsId === 0 || (status === 'error' && isNotFound(query.error));
  // Recorded once the story is known to exist (a missing one is not history).
  useRecordRead(status === 'success' ? newsId : 0);
  usePageHead(
    news?.title || (missing ? t('Missing_Article') : t('Title_article')),
    news?.summary || news?.description || t('Desc_article'),
  );
  if (missing) {
    return <MissingState title={t('Missing_Article')} hint={t('Missing_ArticleHint')} />;
  }
  const errorState = (
    <ErrorState
      error={query.error}
      title={t('Article_ErrorTitle')}
      onRetry={() => void query.refetch()}
    />
  );
  return (
    <div className="screen">
      {status === 'success' && query.data ? (
        <ArticleView
          detail={query.data}
          actions={
            <ArticleActions
              newsId={newsId}
              tags={query.data.news.tags}
              category={query.data.news.category_id}
            />
          }
        />
      ) : status === 'error' ? (
        preview ? (
          <ArticleView detail={previewDetail(preview)} body={errorState} />
        ) : (
          errorState
        )
      ) : preview ? (
        <ArticleView detail={previewDetail(preview)} body={<BodySkeleton />} />
      ) : (
        <ArticleSkeleton />
      )}
    </div>
  );
}
