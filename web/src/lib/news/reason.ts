/**
 * "Why am I seeing this?" (issue 31, D385): the server names, on every item, the rule that
 * put it in its list; the app only words it. The reasons come from the OpenAPI document
 * (the Rust `news_json::Reason`), so a reason the server adds fails this file's type check
 * until it has words in every catalogue.
 */
import type { components } from '../api/schema';

export type Reason = components['schemas']['Reason'];

/** The message key explaining each reason. */
export const REASON_KEYS: Readonly<Record<Reason, string>> = {
  near_you: 'Why_NearYou',
  in_your_state: 'Why_InYourState',
  in_your_country: 'Why_InYourCountry',
  latest: 'Why_Latest',
  top: 'Why_Top',
  trending: 'Why_Trending',
  trending_in_your_state: 'Why_TrendingInYourState',
  followed_publisher: 'Why_FollowedPublisher',
  followed_topic: 'Why_FollowedTopic',
  in_category: 'Why_InCategory',
  about_place: 'Why_AboutPlace',
  from_publisher: 'Why_FromPublisher',
  in_collection: 'Why_InCollection',
  matches_search: 'Why_MatchesSearch',
  same_story: 'Why_SameStory',
  same_place: 'Why_SamePlace',
  opened: 'Why_Opened',
};

export const REASONS = Object.keys(REASON_KEYS) as Reason[];

/**
 * A reason as sent, or null: an item in §3's alternative shape, or from a server that
 * names a reason this app does not know yet, has no explanation rather than a wrong one.
 */
export function toReason(value: unknown): Reason | null {
  return typeof value === 'string' && Object.hasOwn(REASON_KEYS, value) ? (value as Reason) : null;
}
