/**
 * The reader's settings (D261, §1.5): followed topics, home's channel tabs and mutes.
 * Same shape as the other things (D262): keys carry the user id, writes are optimistic
 * and put back with a message when the server refuses.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n';
import { useServices } from '../../lib/services';
import { isApiError } from '../../lib/api';
import { emitPopup } from '../../components/popup';
import {
  CHANNELS_SET_PATH,
  MAX_TEXT_CHARS,
  MUTE_ADD_PATH,
  MUTE_LIST_PATH,
  MUTE_PREVIEW_DEBOUNCE_MS,
  MUTE_PREVIEW_PATH,
  MUTE_REMOVE_PATH,
  TOPIC_FOLLOW_PATH,
  TOPIC_LIST_PATH,
  TOPIC_UNFOLLOW_PATH,
  type Channels,
  type MuteDoc,
  type MuteKind,
  type MuteList,
  type MutePreview,
  type TopicDoc,
  type TopicKind,
  type TopicList,
} from './api';
import { readerKey, useReaderKey } from './cache';
import { invalidateFeeds, useOptimistic } from './hooks';

/** Why the server refused a write (its 400s, D261), so the reader is told in their language. */
export type Refusal = 'tooMany' | 'tooLong' | 'empty' | 'duplicate' | 'other';

export function refusalOf(error: unknown): Refusal {
  if (!isApiError(error) || error.status !== 400) return 'other';
  const message = error.message;
  if (/limit of/i.test(message)) return 'tooMany';
  if (/too long|1 to \d+ characters/i.test(message)) return 'tooLong';
  if (/^empty/i.test(message)) return 'empty';
  if (/same value twice/i.test(message)) return 'duplicate';
  return 'other';
}

/** The text a value would be stored as (the server trims), and whether it may be sent. */
export function cleanValue(value: string): { value: string; tooLong: boolean } {
  const trimmed = value.trim();
  return { value: trimmed, tooLong: [...trimmed].length > MAX_TEXT_CHARS };
}

const sameTopic = (a: { kind: string; value: string }, b: { kind: string; value: string }) =>
  a.kind === b.kind && a.value.toLowerCase() === b.value.toLowerCase();

// ── Topics ──────────────────────────────────────────────────────────────────────

export function useTopics() {
  const services = useServices();
  const { userId, ready } = useReaderKey();
  return useQuery({
    queryKey: readerKey(userId, 'topics'),
    queryFn: async () => (await services.api.post<TopicList>(TOPIC_LIST_PATH, {}))?.list ?? [],
    enabled: ready,
  });
}

export interface TopicChange {
  kind: TopicKind;
  value: string;
  follow: boolean;
}

/** Follow or unfollow a tag or category; the topic list is the one place its state lives. */
export function useFollowTopic() {
  const { t } = useTranslation();
  const services = useServices();
  const { userId } = useReaderKey();
  const key = readerKey(userId, 'topics');
  return useOptimistic<TopicChange>({
    keys: () => [key],
    apply: (client, { kind, value, follow }) =>
      client.setQueryData<TopicDoc[]>(key, (list = []) => {
        const rest = list.filter((topic) => !sameTopic(topic, { kind, value }));
        return follow ? [{ kind, value, followed_at: Date.now() }, ...rest] : rest;
      }),
    call: ({ kind, value, follow }) =>
      services.api.post<TopicList>(follow ? TOPIC_FOLLOW_PATH : TOPIC_UNFOLLOW_PATH, {
        kind,
        value,
      }),
    failure: (error) =>
      refusalOf(error) === 'tooMany' ? t('Topics_TooMany') : t('Topics_FollowFailed'),
    settle: (client, _vars, answer) => {
      const list = (answer as TopicList | undefined)?.list;
      if (Array.isArray(list)) client.setQueryData(key, list);
      // Your-topics feed lists what the topics match (D271): asked again in every language.
      void client.invalidateQueries({ queryKey: readerKey(userId, 'feed', 'topics') });
    },
  });
}

// ── Home channels ───────────────────────────────────────────────────────────────

export function useSaveChannels() {
  const { t } = useTranslation();
  const services = useServices();
  const { userId } = useReaderKey();
  const key = readerKey(userId, 'channels');
  return useOptimistic<string[]>({
    keys: () => [key],
    apply: (client, channels) => client.setQueryData<string[]>(key, channels),
    call: (channels) => services.api.post<Channels>(CHANNELS_SET_PATH, { channels }),
    failure: t('Channels_SaveFailed'),
    settle: (client, _vars, answer) => {
      const channels = (answer as Channels | undefined)?.channels;
      if (Array.isArray(channels)) client.setQueryData(key, channels);
      emitPopup({ text: t('Channels_Saved'), kind: 'success' });
    },
  });
}

// ── Mutes ───────────────────────────────────────────────────────────────────────

export function useMutes() {
  const services = useServices();
  const { userId, ready } = useReaderKey();
  return useQuery({
    queryKey: readerKey(userId, 'mutes'),
    queryFn: async () => (await services.api.post<MuteList>(MUTE_LIST_PATH, {}))?.list ?? [],
    enabled: ready,
  });
}

export interface MuteChange {
  kind: MuteKind;
  value: string;
  mute: boolean;
}

/** The words for a refused mute: the limit and the length get their own message. */
export function useMuteFailureText() {
  const { t } = useTranslation();
  return (error: unknown) => {
    switch (refusalOf(error)) {
      case 'tooMany':
        return t('Mutes_TooMany');
      case 'tooLong':
        return t('Mutes_TooLong', { max: MAX_TEXT_CHARS });
      case 'empty':
        return t('Mutes_Empty');
      default:
        return t('Mutes_Failed');
    }
  };
}

/**
 * Add or take back a mute: shown or gone at once, put back with a message when refused;
 * once the server agrees, every feed is asked again.
 */
export function useMuteChange() {
  const services = useServices();
  const failureText = useMuteFailureText();
  const { userId } = useReaderKey();
  const key = readerKey(userId, 'mutes');
  return useOptimistic<MuteChange>({
    keys: () => [key],
    apply: (client, { kind, value, mute }) =>
      client.setQueryData<MuteDoc[]>(key, (list = []) => {
        const rest = list.filter((m) => !sameTopic(m, { kind, value }));
        return mute ? [{ kind, value, muted_at: Date.now() }, ...rest] : rest;
      }),
    call: ({ kind, value, mute }) =>
      services.api.post<MuteList>(mute ? MUTE_ADD_PATH : MUTE_REMOVE_PATH, { kind, value }),
    failure: failureText,
    settle: (client, _vars, answer) => {
      const list = (answer as MuteList | undefined)?.list;
      if (Array.isArray(list)) client.setQueryData(key, list);
      // A mute hides stories from every feed and search the server answers (D270).
      invalidateFeeds(client, userId);
    },
  });
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * How many of today's stories a mute would hide, asked for as the reader types (after a
 * pause of {@link MUTE_PREVIEW_DEBOUNCE_MS}); nothing is asked for an empty or too long value.
 */
export function useMutePreview(kind: MuteKind, raw: string) {
  const services = useServices();
  const { userId, ready } = useReaderKey();
  const { value, tooLong } = cleanValue(raw);
  const settled = useDebounced(value, MUTE_PREVIEW_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: readerKey(userId, 'mutePreview', kind, settled),
    queryFn: () => services.api.post<MutePreview>(MUTE_PREVIEW_PATH, { kind, value: settled }),
    enabled: ready && settled !== '' && !tooLong && settled === value,
    retry: false,
    staleTime: 60_000,
  });
  return { query, waiting: value !== settled, value, tooLong };
}
