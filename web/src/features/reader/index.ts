import './reader.css';

export {
  REACTIONS,
  isReaction,
  type Reaction,
  type AltNews,
  type ReactedNews,
  type BlockedDoc,
  type FollowedDoc,
} from './api';
export {
  applyReaction,
  useBlock,
  useBlockedPublisher,
  useFollow,
  useFollowList,
  useOwnFeed,
  useReactions,
  useReaderList,
  useRecordRead,
  useSaved,
  useSavedIds,
  useUnblock,
} from './hooks';
export {
  ArticleActions,
  CardSaveButton,
  FollowTopics,
  ReactionBar,
  SaveButton,
} from './components/ArticleActions';
export {
  ChannelsEditor,
  FollowingTagsContent,
  MutesSection,
  SETTINGS_LINKS,
  SettingsLinks,
} from './components/Settings';
export {
  refusalOf,
  useFollowTopic,
  useHomeChannels,
  useMuteChange,
  useMutePreview,
  useMutes,
  useSaveChannels,
  useTopics,
} from './settings';
export {
  BlockButton,
  BlockedNotice,
  FollowButton,
  PublisherActions,
} from './components/PublisherActions';
export { FollowingFeedSection, TopicsFeedSection } from './components/OwnFeeds';
export { ConfirmAction } from './components/Confirm';
export {
  BlockListScreen,
  FollowingScreen,
  HistoryScreen,
  ReactionsScreen,
  SavedScreen,
} from './components/Screens';
