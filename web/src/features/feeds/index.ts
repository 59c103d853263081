import './feeds.css';

export { FEED_FORMATS, feedPath } from './feedPath';
export type { FeedFormat } from './feedPath';
export { FollowAsFeed } from './FollowAsFeed';
