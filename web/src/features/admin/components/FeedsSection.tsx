import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from '../../../i18n';
import { EmptyState, Section } from '../../../components/Screen';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { isApiError } from '../../../lib/api';
import { relativeTime } from '../../../lib/news';
import { ErrorState } from '../../news';
import { usePopup } from '../../../components/popup';
import type { FeedRow } from '../api';
import { timeUntil } from '../format';
import { usePauseFeed, useRemoveFeed } from '../hooks';
import { AddFeedForm } from './AddFeedForm';
import { OpmlImport } from './OpmlImport';

function errorText(error: unknown, fallback: string): string {
  return isApiError(error) && error.message ? error.message : fallback;
}

/** Remove needs a yes: the server stops reading the feed and drops its stories. */
function RemoveDialog({
  feed,
  ...props
}: {
  feed: FeedRow;
  onCancel: () => void;
  onConfirm: () => void;
  busy: boolean;
  error: string | null;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={t('Admin_RemoveTitle')}
      confirmLabel={t('Admin_RemoveConfirm')}
      {...props}
    >
      <p>{t('Admin_RemoveWhat', { publisher: feed.publisher, url: feed.url })}</p>
    </ConfirmDialog>
  );
}

/** `now` is when the list was fetched: times read "as of" that moment, and rendering stays pure. */
function FeedsTable({ feeds, now }: { feeds: FeedRow[]; now: number }) {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const pause = usePauseFeed();
  const remove = useRemoveFeed();
  const [removing, setRemoving] = useState<FeedRow | null>(null);
  const cancel = useCallback(() => setRemoving(null), []);
  const number = new Intl.NumberFormat(i18n.language);

  function togglePause(feed: FeedRow) {
    const paused = !feed.paused;
    pause.mutate(
      { feed_id: feed.feed_id, paused },
      {
        onSuccess: (row) =>
          popup.show({
            text: t(row.paused ? 'Admin_PausedOne' : 'Admin_ResumedOne', {
              publisher: row.publisher,
            }),
            kind: 'success',
          }),
        onError: (error) =>
          popup.show({ text: errorText(error, t('Web_UnknownError')), kind: 'error' }),
      },
    );
  }

  function confirmRemove() {
    if (!removing) return;
    const feed = removing;
    remove.mutate(feed.feed_id, {
      onSuccess: () => {
        setRemoving(null);
        popup.show({ text: t('Admin_RemovedOne', { publisher: feed.publisher }), kind: 'success' });
      },
    });
  }

  return (
    <>
      <div className="admin-table-wrap">
        <table className="admin-table admin-feeds">
          <caption>{t('Admin_FeedsCaption', { n: feeds.length })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('Admin_Publisher')}</th>
              <th scope="col">{t('Admin_Url')}</th>
              <th scope="col">{t('Admin_LastFetch')}</th>
              <th scope="col">{t('Admin_Status')}</th>
              <th scope="col" className="admin-table__number">
                {t('Admin_Items')}
              </th>
              <th scope="col">{t('Admin_NextDue')}</th>
              <th scope="col">{t('Admin_LastError')}</th>
              <th scope="col">{t('Admin_Actions')}</th>
            </tr>
          </thead>
          <tbody>
            {feeds.map((feed) => (
              <tr key={feed.feed_id} className={feed.paused ? 'admin-feeds__paused' : undefined}>
                <th scope="row">
                  {feed.publisher}
                  <span className="admin-feeds__lang"> · {feed.lang}</span>
                </th>
                <td className="admin-feeds__url">{feed.url}</td>
                <td>
                  {feed.last_fetch
                    ? relativeTime(feed.last_fetch, i18n.language, now)
                    : t('Admin_Never')}
                </td>
                <td>{feed.last_status ?? '—'}</td>
                <td className="admin-table__number">
                  {number.format(feed.items)}
                  {feed.last_items > 0 && (
                    <span className="admin-feeds__new">
                      {' '}
                      {t('Admin_LastItems', { n: feed.last_items })}
                    </span>
                  )}
                </td>
                <td>
                  {feed.paused
                    ? t('Admin_Paused')
                    : timeUntil(feed.next_due, i18n.language, now) || t('Admin_DueNow')}
                </td>
                <td className={feed.last_error ? 'admin-feeds__error' : undefined}>
                  {feed.last_error ? (
                    <>
                      {feed.last_error}
                      {feed.consecutive_errors > 0 && (
                        <span className="admin-feeds__errors">
                          {' '}
                          {t('Admin_InARow', { n: feed.consecutive_errors })}
                        </span>
                      )}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td>
                  <div className="admin-feeds__actions">
                    <button type="button" className="button" onClick={() => togglePause(feed)}>
                      {t(feed.paused ? 'Admin_Resume' : 'Admin_Pause')}
                      <span className="visually-hidden">: {feed.publisher}</span>
                    </button>
                    <button
                      type="button"
                      className="button button--danger"
                      aria-haspopup="dialog"
                      onClick={() => {
                        remove.reset();
                        setRemoving(feed);
                      }}
                    >
                      {t('Admin_Remove')}
                      <span className="visually-hidden">: {feed.publisher}</span>
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {removing && (
        <RemoveDialog
          feed={removing}
          busy={remove.isPending}
          error={remove.isError ? errorText(remove.error, t('Web_UnknownError')) : null}
          onCancel={cancel}
          onConfirm={confirmRemove}
        />
      )}
    </>
  );
}

/** D342 feeds: their health as `localwire feeds list` shows it, pause, remove, add, import OPML. */
export function FeedsSection({ feeds }: { feeds: UseQueryResult<FeedRow[]> }) {
  const { t } = useTranslation();
  return (
    <Section title={t('Admin_Feeds')}>
      {feeds.isPending ? (
        <p role="status">{t('Web_Loading')}</p>
      ) : feeds.isError ? (
        <ErrorState error={feeds.error} onRetry={() => void feeds.refetch()} compact />
      ) : feeds.data.length === 0 ? (
        <EmptyState title={t('Admin_FeedsEmpty')} hint={t('Admin_FeedsEmptyHint')} />
      ) : (
        <FeedsTable feeds={feeds.data} now={feeds.dataUpdatedAt} />
      )}
      <AddFeedForm />
      <OpmlImport />
    </Section>
  );
}
