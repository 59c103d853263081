/**
 * The reader's own things (issue 16). No styles are imported here: each component brings
 * reader.css, so importing a hook from this file loads no component (D415).
 */
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
  useUnblock,
} from './hooks';
export { useSaved, useSavedIds } from './saved';
export { ArticleActions, FollowTopics, ReactionBar } from './components/ArticleActions';
export { CardSaveButton } from './components/CardSaveButton';
export { SaveButton } from './components/SaveButtons';
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
  useMuteChange,
  useMutePreview,
  useMutes,
  useSaveChannels,
  useTopics,
} from './settings';
export { useHomeChannels } from './channels';
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
