import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { EmptyState, Screen, Section } from '../../../components/Screen';
import { localizePath } from '../../../lib/locale';
import { relativeTime, type Page } from '../../../lib/news';
import { articlePath, ErrorState, ListSkeleton, PagedList, useErrorText } from '../../news';
import { MAX_DAILY_BUDGET, type SentNews, type SettingsDoc } from '../api';
import {
  useBrowserState,
  useSaveSettings,
  useSentList,
  useSettings,
  useTurnOff,
  useTurnOn,
} from '../hooks';

/** Turn notifications on or off in this browser; the prompt comes only from the button. */
export function NotificationsToggle() {
  const { t } = useTranslation();
  const state = useBrowserState();
  const on = useTurnOn();
  const off = useTurnOff();
  const errorText = useErrorText(on.error ?? off.error);
  const busy = on.isPending || off.isPending;
  const current = state.data;
  if (state.isPending) return <p aria-busy="true">{t('Push_Checking')}</p>;
  return (
    <div className="push-toggle">
      {current === 'unsupported' && <p>{t('Push_Unsupported')}</p>}
      {current === 'denied' && <p role="status">{t('Push_Denied')}</p>}
      {current === 'on' && (
        <>
          <p role="status">{t('Push_On')}</p>
          <button type="button" className="button" disabled={busy} onClick={() => off.mutate()}>
            {t('Push_TurnOff')}
          </button>
        </>
      )}
      {current === 'off' && (
        <button
          type="button"
          className="button button--primary"
          disabled={busy}
          onClick={() => on.mutate()}
        >
          {t('Push_TurnOn')}
        </button>
      )}
      {(on.isError || off.isError) && <p role="alert">{errorText}</p>}
    </div>
  );
}

/**
 * Below the switch where guests turn notifications on (/local): once they are on in this
 * browser, the budget form too, folded, so a guest can set quiet hours and a digest without
 * an account (the /user screens need one, D8).
 */
export function NotificationSettingsDetails() {
  const { t } = useTranslation();
  const state = useBrowserState();
  if (state.data !== 'on') return null;
  return (
    <details className="push-settings-details">
      <summary>{t('Push_SettingsSummary')}</summary>
      <NotificationSettingsForm />
    </details>
  );
}

/**
 * On a publisher's page, for a reader who gets notifications: whether this publisher's
 * stories may be pushed to them (the settings' `media_off`, D311). A pressed button, so the
 * name stays the same and the state is read out.
 */
export function PublisherPushSwitch({ mediaId, name }: { mediaId: number; name: string }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const save = useSaveSettings();
  const errorText = useErrorText(save.error);
  const doc = settings.data;
  if (!doc || !doc.enabled || !(doc.subscriptions ?? 0)) return null;
  const list = doc.media_off ?? [];
  const off = list.includes(mediaId);
  const toggle = () =>
    save.mutate({
      ...doc,
      media_off: off ? list.filter((id) => id !== mediaId) : [...list, mediaId],
    });
  return (
    <span className="push-publisher">
      <button
        type="button"
        className="button"
        aria-pressed={!off}
        disabled={save.isPending}
        onClick={toggle}
      >
        {t('Push_PublisherSwitch', { name })}
      </button>
      {save.isError && <span role="alert">{errorText}</span>}
    </span>
  );
}

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** The budget, quiet hours, digest and switched-off publishers and topics. */
export function NotificationSettingsForm() {
  const settings = useSettings();
  if (settings.isPending) return <ListSkeleton count={2} />;
  if (settings.isError)
    return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  return <SettingsFields initial={settings.data} />;
}

function SettingsFields({ initial }: { initial: SettingsDoc }) {
  const { t } = useTranslation();
  const save = useSaveSettings();
  const errorText = useErrorText(save.error);
  const [draft, setDraft] = useState<SettingsDoc>(initial);
  const [saved, setSaved] = useState(false);
  const id = useId();
  const set = (changes: Partial<SettingsDoc>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...changes }));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(draft, { onSuccess: () => setSaved(true) });
  };
  const digest = draft.digest_hour ?? null;
  return (
    <form className="push-settings" onSubmit={submit} aria-describedby={`${id}-note`}>
      <p id={`${id}-note`}>{t('Push_SettingsNote')}</p>
      <label>
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(e) => set({ enabled: e.target.checked })}
        />{' '}
        {t('Push_Enabled')}
      </label>
      <fieldset>
        <legend>{t('Push_Delivery')}</legend>
        <label>
          <input
            type="radio"
            name={`${id}-mode`}
            checked={digest === null}
            onChange={() => set({ digest_hour: null })}
          />{' '}
          {t('Push_Singles')}
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-mode`}
            checked={digest !== null}
            onChange={() => set({ digest_hour: 8 })}
          />{' '}
          {t('Push_Digest')}
        </label>
      </fieldset>
      {digest === null ? (
        <>
          <label>
            {t('Push_Budget')}{' '}
            <input
              type="number"
              min={0}
              max={MAX_DAILY_BUDGET}
              value={draft.daily_budget}
              onChange={(e) => set({ daily_budget: Number(e.target.value) })}
            />
          </label>
          <label>
            {t('Push_QuietStart')}{' '}
            <input
              type="time"
              value={draft.quiet_start}
              onChange={(e) => set({ quiet_start: e.target.value })}
            />
          </label>
          <label>
            {t('Push_QuietEnd')}{' '}
            <input
              type="time"
              value={draft.quiet_end}
              onChange={(e) => set({ quiet_end: e.target.value })}
            />
          </label>
        </>
      ) : (
        <label>
          {t('Push_DigestHour')}{' '}
          <select value={digest} onChange={(e) => set({ digest_hour: Number(e.target.value) })}>
            {HOURS.map((h) => (
              <option key={h} value={h}>
                {`${String(h).padStart(2, '0')}:00`}
              </option>
            ))}
          </select>
        </label>
      )}
      {(draft.media_off ?? []).length > 0 && (
        <p>{t('Push_PublishersOff', { count: (draft.media_off ?? []).length })}</p>
      )}
      <label>
        {t('Push_TopicsOff')}{' '}
        <input
          type="text"
          value={(draft.topics_off ?? []).join(', ')}
          onChange={(e) =>
            set({
              topics_off: e.target.value
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            })
          }
        />
      </label>
      <button type="submit" className="button" disabled={save.isPending}>
        {t('Push_Save')}
      </button>
      {saved && <p role="status">{t('Push_Saved')}</p>}
      {save.isError && <p role="alert">{errorText}</p>}
    </form>
  );
}

function SentRow({ item }: { item: SentNews }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  return (
    <div className="thing">
      <div className="thing__text">
        <Link className="thing__title" to={localizePath(locale, articlePath(item.news_id))}>
          {item.news_title}
        </Link>
        <p className="thing__meta">
          {item.media?.name && <span>{item.media.name}</span>}{' '}
          <time dateTime={new Date(item.create_time).toISOString()}>
            {t('Push_SentAgo', { time: relativeTime(item.create_time, locale) })}
          </time>
        </p>
      </div>
    </div>
  );
}

/** §2 /user/notification: turn on or off, the settings, and what was sent. */
export function NotificationsScreen() {
  const { t } = useTranslation();
  const query = useSentList();
  return (
    <Screen>
      <Section title={t('Push_Section')}>
        <NotificationsToggle />
        <NotificationSettingsForm />
      </Section>
      <Section title={t('Push_SentSection')}>
        <PagedList<SentNews, Page<SentNews>>
          query={query}
          itemKey={(item) => `${item.news_id}-${item.create_time}`}
          listClassName="thing-list"
          empty={<EmptyState title={t('Empty_Notifications')} hint={t('Push_EmptyHint')} />}
          renderItem={(item) => <SentRow item={item} />}
        />
      </Section>
    </Screen>
  );
}
