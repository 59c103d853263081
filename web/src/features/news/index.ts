/**
 * Reading news: the hooks that read feeds, stories and searches through the data
 * layer, and the cards, lists, tabs and article view. The news model itself (types,
 * readers, derived values, formatting) is shared code: lib/news.
 */
import './news.css';

export * from './hooks';
export { callMatches, payloadDataFor, PAYLOAD_FRESH_MS } from './seed';
export { NewsImage, DEFAULT_IMAGE_ATTEMPTS, IMAGE_THROTTLE_MS } from './components/NewsImage';
export {
  NewsCard,
  NewsBadges,
  PublisherBadge,
  TimeAgo,
  articlePath,
  articlePreview,
  mediaPath,
} from './components/NewsCard';
export { NewsFeed } from './components/NewsFeed';
export { NewsList, PagedList, NoStories, pagedItems } from './components/PagedList';
export {
  dataFetchStatus,
  ErrorState,
  ListSkeleton,
  useErrorText,
  isNotFound,
  type DataFetchStatus,
} from './components/StatusViews';
export {
  CategoryTabs,
  CATEGORY_IDS,
  HOME_CHANNEL_IDS,
  channelLabelKey,
  channelPath,
  isCategoryId,
  isHomeChannel,
} from './components/CategoryTabs';
export { MediaHeader } from './components/MediaHeader';
export { ArticleView, locationPath } from './components/ArticleView';
export { Highlight } from './components/Highlight';
export { FeedSection, ScopeNote, MissingState } from './components/FeedSection';
