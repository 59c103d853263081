import './news.css';

export * from './model';
export { REASONS, REASON_KEYS, toReason, type Reason } from './reason';
export * from './api';
export { normalizeMediaSource } from './model';
export * from './hooks';
export { dataFetchStatus, type DataFetchStatus } from './status';
export { fold, fullDate, highlightParts, relativeTime } from './format';
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
export { NewsFeed, PagedList, NoStories, pagedItems } from './components/NewsFeed';
export { ErrorState, ListSkeleton, useErrorText, isNotFound } from './components/StatusViews';
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
