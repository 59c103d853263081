import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../../../i18n';
import { Link, useLocation } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { EmptyState, Section } from '../../../components/Screen';
import { localizePath } from '../../../lib/locale';
import { fullDate } from '../../../lib/news';
import {
  CATEGORY_IDS,
  channelLabelKey,
  ErrorState,
  HOME_CHANNEL_IDS,
  isHomeChannel,
  ListSkeleton,
} from '../../news';
import { MAX_MUTES, MAX_TEXT_CHARS, MUTE_KINDS, isMuteKind, type MuteKind } from '../api';
import { useHomeChannels } from '../channels';
import {
  useFollowTopic,
  useMuteChange,
  useMuteFailureText,
  useMutePreview,
  useMutes,
  refusalOf,
  useSaveChannels,
  useTopics,
} from '../settings';
import '../reader.css';

/** The reader's settings pages, linked from each of them and from /user (D265). */
export const SETTINGS_LINKS = [
  { path: '/setting/following-tags', key: 'Title_setting_following_tags' },
  { path: '/setting/explore-channels', key: 'Title_setting_explore_channels' },
  { path: '/setting/block-list', key: 'Title_setting_block_list' },
  { path: '/setting/block-list#mutes', key: 'Mutes_Title' },
] as const;

export function SettingsLinks() {
  const { t } = useTranslation();
  const { locale, def } = useRouteHandle();
  const here = def?.path;
  return (
    <nav aria-label={t('Settings_Nav')}>
      <ul className="link-list">
        {SETTINGS_LINKS.filter((link) => link.path !== here).map((link) => (
          <li key={link.path}>
            <Link to={localizePath(locale, link.path)}>{t(link.key)}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

// ── /setting/following-tags ─────────────────────────────────────────────────────

/** §2.17: followed tags (unfollow each) and the categories, each a follow toggle (D263). */
export function FollowingTagsContent() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const query = useTopics();
  const change = useFollowTopic();
  if (query.isPending) return <ListSkeleton count={3} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const tags = query.data.filter((topic) => topic.kind === 'tag');
  const followedCategories = new Set(
    query.data.filter((topic) => topic.kind === 'category').map((topic) => topic.value),
  );
  return (
    <>
      <Section title={t('Topics_Tags')}>
        {tags.length === 0 ? (
          <EmptyState title={t('Empty_Tags')} hint={t('Topics_EmptyTagsHint')} />
        ) : (
          <ul className="thing-list">
            {tags.map((topic) => (
              <li key={topic.value}>
                <div className="thing">
                  <div className="thing__text">
                    <Link
                      className="thing__title"
                      to={localizePath(locale, `/search/news?q=${encodeURIComponent(topic.value)}`)}
                    >
                      {topic.value}
                    </Link>
                    {topic.followed_at > 0 && (
                      <p className="thing__meta">
                        {t('Topics_FollowedOn', {
                          date: fullDate(topic.followed_at, locale, { withTime: false }),
                        })}
                      </p>
                    )}
                  </div>
                  <div className="thing__action">
                    <button
                      type="button"
                      className="button"
                      aria-label={t('Reader_UnfollowOne', { name: topic.value })}
                      onClick={() =>
                        change.mutate({ kind: 'tag', value: topic.value, follow: false })
                      }
                    >
                      {t('Reader_Unfollow')}
                    </button>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={t('Topics_Categories')}>
        <p className="reader-note">{t('Topics_CategoriesHint')}</p>
        <ul className="chips">
          {CATEGORY_IDS.map((id) => {
            const followed = followedCategories.has(id);
            const name = t(`Category_${id}`);
            return (
              <li key={id}>
                <button
                  type="button"
                  className={followed ? 'chip chip--toggle chip--on' : 'chip chip--toggle'}
                  aria-pressed={followed}
                  aria-label={t('Topics_FollowOne', { name })}
                  onClick={() => change.mutate({ kind: 'category', value: id, follow: !followed })}
                >
                  <span aria-hidden="true">{followed ? '✓ ' : '+ '}</span>
                  {name}
                </button>
              </li>
            );
          })}
        </ul>
      </Section>
    </>
  );
}

// ── /setting/explore-channels ───────────────────────────────────────────────────

/** What home shows without a saved list (the default category row), as an editable list. */
export const DEFAULT_CHANNELS: readonly string[] = CATEGORY_IDS;

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

type FocusTarget = { id: string; control: 'up' | 'down' | 'remove' };

/**
 * §2.18 (D264): which tabs home shows and in what order. Move up / Move down (keyboard
 * and pointer; the moved item keeps the focus), drag and drop, remove, add, then save.
 */
export function ChannelsEditor() {
  const { t } = useTranslation();
  const query = useHomeChannels();
  const save = useSaveChannels();
  const [draft, setDraft] = useState<string[] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const focusNext = useRef<FocusTarget | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();

  // After a move or a removal, the keyboard stays where the reader was working.
  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    const item = list.current?.querySelector(`[data-channel="${target.id}"]`);
    if (!item) {
      saveButton.current?.focus();
      return;
    }
    const pick = (control: string) =>
      item.querySelector<HTMLButtonElement>(`button[data-control="${control}"]`);
    const wanted = pick(target.control);
    const other = pick(target.control === 'up' ? 'down' : 'up');
    (wanted && !wanted.disabled
      ? wanted
      : other && !other.disabled
        ? other
        : pick('remove')
    )?.focus();
  });

  if (query.isPending) return <ListSkeleton count={4} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;

  const stored = query.data.filter(isHomeChannel);
  const saved = stored.length > 0 ? stored : [...DEFAULT_CHANNELS];
  const current = draft ?? saved;
  const dirty = draft !== null && !sameList(draft, saved);
  const name = (id: string) => t(channelLabelKey(id));
  const available = HOME_CHANNEL_IDS.filter((id) => !current.includes(id));

  function moveTo(id: string, to: number, control: FocusTarget['control'] | null) {
    const from = current.indexOf(id);
    if (from < 0 || to < 0 || to >= current.length || to === from) return;
    const next = [...current];
    next.splice(from, 1);
    next.splice(to, 0, id);
    setDraft(next);
    if (control) focusNext.current = { id, control };
    setAnnouncement(t('Channels_Moved', { name: name(id), position: to + 1, total: next.length }));
  }

  function remove(id: string) {
    const index = current.indexOf(id);
    const next = current.filter((c) => c !== id);
    setDraft(next);
    const neighbour = next[index] ?? next[index - 1];
    focusNext.current = { id: neighbour ?? '', control: 'remove' };
    setAnnouncement(t('Channels_Removed', { name: name(id) }));
  }

  function add(id: string) {
    const next = [...current, id];
    setDraft(next);
    focusNext.current = { id, control: 'up' };
    setAnnouncement(t('Channels_Added', { name: name(id), position: next.length }));
  }

  function submit(channels: string[]) {
    const before = draft;
    setDraft(null);
    save.mutate(channels, { onError: () => setDraft(before) });
  }

  return (
    <>
      <section className="section" aria-labelledby={headingId}>
        <h2 id={headingId} className="section__title">
          {t('Channels_YourTabs')}
        </h2>
        <p className="reader-note">
          {stored.length > 0 ? t('Channels_Custom') : t('Channels_DefaultNote')}
        </p>
        {current.length === 0 ? (
          <EmptyState title={t('Channels_NoneTitle')} hint={t('Channels_NoneHint')} />
        ) : (
          <ol ref={list} className="channel-list" aria-labelledby={headingId}>
            {current.map((id, index) => (
              <li
                key={id}
                className="channel"
                data-channel={id}
                data-dragging={dragging === id || undefined}
                draggable
                onDragStart={(event) => {
                  setDragging(id);
                  event.dataTransfer?.setData('text/plain', id);
                }}
                onDragOver={(event) => event.preventDefault()}
                onDrop={(event) => {
                  event.preventDefault();
                  if (dragging) moveTo(dragging, index, null);
                  setDragging(null);
                }}
                onDragEnd={() => setDragging(null)}
              >
                <span className="channel__grip" aria-hidden="true">
                  ⠿
                </span>
                <span className="channel__position" aria-hidden="true">
                  {index + 1}
                </span>
                <span className="channel__name">{name(id)}</span>
                <button
                  type="button"
                  className="button"
                  data-control="up"
                  aria-label={t('Channels_MoveUp', { name: name(id) })}
                  disabled={index === 0}
                  onClick={() => moveTo(id, index - 1, 'up')}
                >
                  <span aria-hidden="true">↑</span>
                </button>
                <button
                  type="button"
                  className="button"
                  data-control="down"
                  aria-label={t('Channels_MoveDown', { name: name(id) })}
                  disabled={index === current.length - 1}
                  onClick={() => moveTo(id, index + 1, 'down')}
                >
                  <span aria-hidden="true">↓</span>
                </button>
                <button
                  type="button"
                  className="button"
                  data-control="remove"
                  aria-label={t('Channels_RemoveOne', { name: name(id) })}
                  onClick={() => remove(id)}
                >
                  {t('Reader_Remove')}
                </button>
              </li>
            ))}
          </ol>
        )}
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
        <div className="settings-bar">
          <button
            ref={saveButton}
            type="button"
            className="button button--primary"
            disabled={!dirty}
            onClick={() => submit(current)}
          >
            {t('Channels_Save')}
          </button>
          {(stored.length > 0 || dirty) && (
            <button type="button" className="button" onClick={() => submit([])}>
              {t('Channels_Reset')}
            </button>
          )}
        </div>
      </section>
      <Section title={t('Channels_AddTitle')}>
        {available.length === 0 ? (
          <p className="reader-note">{t('Channels_AllShown')}</p>
        ) : (
          <ul className="chips">
            {available.map((id) => (
              <li key={id}>
                <button
                  type="button"
                  className="chip chip--toggle"
                  aria-label={t('Channels_AddOne', { name: name(id) })}
                  onClick={() => add(id)}
                >
                  <span aria-hidden="true">+ </span>
                  {name(id)}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

// ── Mutes (on /setting/block-list, D265) ────────────────────────────────────────

const muteKindKey = (kind: string) =>
  isMuteKind(kind) ? `Mutes_Kind_${kind}` : 'Mutes_Kind_keyword';

/** What the preview line says for the value being typed. */
function PreviewLine({ preview }: { preview: ReturnType<typeof useMutePreview> }) {
  const { t } = useTranslation();
  const { query, value, waiting, tooLong } = preview;
  let text = '';
  // A too long value has its own message beside the box; nothing is counted for it.
  if (value === '') text = t('Mutes_PreviewHint');
  else if (tooLong) text = '';
  else if (waiting || query.isFetching) text = t('Mutes_Counting');
  else if (query.isError)
    text =
      refusalOf(query.error) === 'tooLong'
        ? t('Mutes_TooLong', { max: MAX_TEXT_CHARS })
        : t('Mutes_PreviewFailed');
  else if (query.data)
    text =
      query.data.hidden_today === 0
        ? t('Mutes_PreviewNone', { total: query.data.looked_at })
        : t('Mutes_Preview', { count: query.data.hidden_today, total: query.data.looked_at });
  return (
    <p className="mute-form__preview" role="status">
      {text}
    </p>
  );
}

export function MutesSection() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const location = useLocation();
  const query = useMutes();
  const change = useMuteChange();
  const failureText = useMuteFailureText();
  const [kind, setKind] = useState<MuteKind>('keyword');
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const preview = useMutePreview(kind, text);
  const anchor = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const ids = { kind: useId(), text: useId(), error: useId() };

  useEffect(() => {
    if (location.hash === '#mutes') anchor.current?.scrollIntoView?.({ block: 'start' });
  }, [location.hash]);

  const count = query.data?.length ?? 0;
  const atLimit = count >= MAX_MUTES;
  const shownError = preview.tooLong
    ? t('Mutes_TooLong', { max: MAX_TEXT_CHARS })
    : atLimit
      ? t('Mutes_TooMany')
      : error;

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = preview.value;
    if (value === '') {
      setError(t('Mutes_Empty'));
      input.current?.focus();
      return;
    }
    if (preview.tooLong || atLimit) {
      input.current?.focus();
      return;
    }
    setError('');
    setText('');
    change.mutate(
      { kind, value, mute: true },
      {
        onError: (failure) => {
          // Back in the box, with what went wrong beside it (and in the popup).
          setText(value);
          setError(failureText(failure));
          input.current?.focus();
        },
      },
    );
  }

  let list: ReactNode;
  if (query.isPending) list = <ListSkeleton count={3} />;
  else if (query.isError)
    list = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0)
    list = <EmptyState title={t('Mutes_EmptyTitle')} hint={t('Mutes_EmptyHint')} />;
  else
    list = (
      <ul className="thing-list">
        {query.data.map((mute) => (
          <li key={`${mute.kind}:${mute.value}`}>
            <div className="thing">
              <div className="thing__text">
                <p className="thing__title">{mute.value}</p>
                <p className="thing__meta">
                  <span className="badge">{t(muteKindKey(mute.kind))}</span>
                  {mute.muted_at > 0 && (
                    <span>
                      {t('Mutes_MutedOn', {
                        date: fullDate(mute.muted_at, locale, { withTime: false }),
                      })}
                    </span>
                  )}
                </p>
              </div>
              <div className="thing__action">
                <button
                  type="button"
                  className="button"
                  aria-label={t('Mutes_RemoveOne', { name: mute.value })}
                  onClick={() =>
                    change.mutate({
                      kind: isMuteKind(mute.kind) ? mute.kind : 'keyword',
                      value: mute.value,
                      mute: false,
                    })
                  }
                >
                  {t('Mutes_Remove')}
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <div id="mutes" ref={anchor}>
      <Section title={t('Mutes_Title')}>
        <p className="reader-note">{t('Mutes_Intro')}</p>
        <form className="mute-form" onSubmit={submit} noValidate>
          <div className="mute-form__row">
            <div className="mute-form__field">
              <label htmlFor={ids.kind}>{t('Mutes_KindLabel')}</label>
              <select
                id={ids.kind}
                value={kind}
                onChange={(event) => {
                  if (isMuteKind(event.target.value)) setKind(event.target.value);
                }}
              >
                {MUTE_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {t(muteKindKey(k))}
                  </option>
                ))}
              </select>
            </div>
            <div className="mute-form__field mute-form__field--grow">
              <label htmlFor={ids.text}>{t('Mutes_ValueLabel')}</label>
              <input
                ref={input}
                id={ids.text}
                type="text"
                value={text}
                autoComplete="off"
                aria-invalid={shownError ? true : undefined}
                aria-describedby={shownError ? ids.error : undefined}
                onChange={(event) => {
                  setText(event.target.value);
                  setError('');
                }}
              />
            </div>
            <button type="submit" className="button button--primary" disabled={atLimit}>
              {t('Mutes_Add')}
            </button>
          </div>
          <p id={ids.error} className="mute-form__error">
            {shownError}
          </p>
          <PreviewLine preview={preview} />
        </form>
        {list}
      </Section>
    </div>
  );
}
