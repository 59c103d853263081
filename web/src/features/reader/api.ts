/**
 * The reader's own things (D261): signed POSTs for guests and accounts alike, and the
 * query keys they live under. Every key starts with `['reader', userId]`, so signing in
 * or out never shows one reader's things to another.
 */
import type { components } from '../../lib/api/schema';
import type { Page } from '../../lib/news';

type Schemas = components['schemas'];

export type AltNews = Schemas['AltNews'];
export type ReactedNews = Schemas['ReactedNews'];
export type ReactionSummary = Schemas['ReactionSummary'];
export type FollowedDoc = Schemas['FollowedDoc'];
export type BlockedDoc = Schemas['BlockedDoc'];
export type SavedList = Schemas['SavedList'];
export type HistoryList = Schemas['HistoryList'];
export type ReactionList = Schemas['ReactionList'];
export type BlockList = Schemas['BlockList'];
export type FollowList = Schemas['FollowList'];
export type SavedState = Schemas['SavedState'];
export type FollowState = Schemas['FollowState'];
export type BlockState = Schemas['BlockState'];
export type TopicDoc = Schemas['TopicDoc'];
export type TopicList = Schemas['TopicList'];
export type TopicRequest = Schemas['TopicRequest'];
export type Channels = Schemas['Channels'];
export type MuteDoc = Schemas['MuteDoc'];
export type MuteList = Schemas['MuteList'];
export type MuteRequest = Schemas['MuteRequest'];
export type MutePreview = Schemas['MutePreview'];
export type PersonalFeedRequest = Schemas['PersonalFeedRequest'];
export type FollowsOpml = Schemas['FollowsOpml'];

export const COLLECT_PATH = '/user/news/collect';
export const UNCOLLECT_PATH = '/user/news/unCollect';
export const COLLECT_LIST_PATH = '/user/news/collectList';
export const READ_PATH = '/user/news/read';
export const READ_LIST_PATH = '/user/news/readList';
export const READ_REMOVE_PATH = '/user/news/readRemove';
export const READ_CLEAR_PATH = '/user/news/readClear';
export const REACT_PATH = '/ugc/react';
export const REACTIONS_PATH = '/ugc/reactions';
export const REACTION_LIST_PATH = '/ugc/reactionList';
export const FOLLOW_PATH = '/user/media/follow';
export const UNFOLLOW_PATH = '/user/media/unfollow';
export const FOLLOW_LIST_PATH = '/user/media/followList';
export const BLOCK_PATH = '/user/media/block';
export const UNBLOCK_PATH = '/user/media/unblock';
export const BLOCK_LIST_PATH = '/user/media/blockList';
export const FOLLOWS_OPML_PATH = '/user/follows/opml';
export const TOPIC_FOLLOW_PATH = '/user/topics/follow';
export const TOPIC_UNFOLLOW_PATH = '/user/topics/unfollow';
export const TOPIC_LIST_PATH = '/user/topics/list';
export const CHANNELS_SET_PATH = '/user/channels/set';
export const CHANNELS_LIST_PATH = '/user/channels/list';
export const MUTE_ADD_PATH = '/user/mutes/add';
export const MUTE_REMOVE_PATH = '/user/mutes/remove';
export const MUTE_LIST_PATH = '/user/mutes/list';
export const MUTE_PREVIEW_PATH = '/user/mutes/preview';
export const FOLLOWING_FEED_PATH = '/user/news/followingFeed';
export const TOPICS_FEED_PATH = '/user/news/topicsFeed';

/**
 * The reader's own feeds (D271): signed POSTs answering `/news/feed`'s page shape, listed
 * under `['reader', userId, 'feed', name, lang]`.
 */
export const OWN_FEEDS = {
  following: FOLLOWING_FEED_PATH,
  topics: TOPICS_FEED_PATH,
} as const;
export type OwnFeedName = keyof typeof OWN_FEEDS;
/** Stories asked for per page of an own feed (the server allows 1 to 50). */
export const OWN_FEED_PAGE_SIZE = 20;

/** What a reader can follow besides publishers (D261): a story's tag or its category. */
export const TOPIC_KINDS = ['tag', 'category'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];

/** What a mute matches: a whole keyword of the title or summary, a tag, an author. */
export const MUTE_KINDS = ['keyword', 'tag', 'author'] as const;
export type MuteKind = (typeof MUTE_KINDS)[number];
export const isMuteKind = (value: unknown): value is MuteKind =>
  typeof value === 'string' && (MUTE_KINDS as readonly string[]).includes(value);

/** The server's bounds (D260): 100 characters of text, 1 000 mutes, 30 home channels. */
export const MAX_TEXT_CHARS = 100;
export const MAX_MUTES = 1000;
export const MAX_CHANNELS = 30;
/** How long typing pauses before the mute preview is asked for. */
export const MUTE_PREVIEW_DEBOUNCE_MS = 300;

/** The server's fixed set (D261), in the order the bar shows them. */
export const REACTIONS = ['like', 'love', 'insightful', 'funny', 'sad', 'angry'] as const;
export type Reaction = (typeof REACTIONS)[number];

export const isReaction = (value: unknown): value is Reaction =>
  typeof value === 'string' && (REACTIONS as readonly string[]).includes(value);

export const REACTION_EMOJI: Record<Reaction, string> = {
  like: '👍',
  love: '❤️',
  insightful: '💡',
  funny: '😄',
  sad: '😢',
  angry: '😠',
};

/** Labels: `Reaction_like` … `Reaction_angry`. */
export const reactionLabelKey = (reaction: Reaction) => `Reaction_${reaction}` as const;

/** The reader's paged lists, each with the field its answer names the next page in. */
export const LISTS = {
  saved: { path: COLLECT_LIST_PATH, next: 'next_page_no' },
  history: { path: READ_LIST_PATH, next: 'next_page_no' },
  reactions: { path: REACTION_LIST_PATH, next: 'next_max_id' },
  blocked: { path: BLOCK_LIST_PATH, next: 'token' },
} as const;
export type ListName = keyof typeof LISTS;

export interface ListItems {
  saved: AltNews;
  history: AltNews;
  reactions: ReactedNews;
  blocked: BlockedDoc;
}

/** One answer as a §3 page, so the shared paged list can show it. */
export function toPage<T>(raw: unknown, next: string): Page<T> {
  const answer = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const token = answer[next];
  return {
    list: Array.isArray(answer.list) ? (answer.list as T[]) : [],
    next_page_token: typeof token === 'string' ? token : '',
  };
}

/** Saved state is known from one page this size (the reader's newest saves). */
export const SAVED_IDS_SIZE = 100;
export const LIST_PAGE_SIZE = 20;
