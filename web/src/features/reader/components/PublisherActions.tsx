import { useEffect, useRef } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { localizePath } from '../../../lib/locale';
import type { MediaSource } from '../../../lib/news';
import { useBlock, useBlockedPublisher, useFollow, useFollowList, useUnblock } from '../hooks';
import { PublisherPushSwitch } from '../../notifications';
import { ConfirmAction } from './Confirm';
import '../reader.css';

/** Follow / Following: the reader's follow list says which, so it is shown once known. */
export function FollowButton({ media }: { media: MediaSource }) {
  const { t } = useTranslation();
  const follows = useFollowList();
  const follow = useFollow();
  if (!follows.data) return null;
  const following = follows.data.some((m) => m.media_id === media.media_id);
  return (
    <button
      type="button"
      className={following ? 'button reader-toggle reader-toggle--on' : 'button button--primary'}
      aria-pressed={following}
      onClick={() => follow.mutate({ media, follow: !following })}
    >
      {following ? t('Reader_Following') : t('Reader_Follow')}
    </button>
  );
}

export function BlockButton({ media }: { media: MediaSource }) {
  const { t } = useTranslation();
  const block = useBlock();
  return (
    <ConfirmAction
      label={t('Reader_Block')}
      question={t('Reader_BlockQuestion', { name: media.name })}
      confirmLabel={t('Reader_BlockConfirm')}
      disabled={block.isPending}
      onConfirm={() => block.mutate(media)}
    />
  );
}

/**
 * What a blocked publisher's page offers instead of Follow and Block (D273): that the
 * reader blocked it, an Unblock (at once, put back with a message if refused) and the way
 * to the block list.
 */
export function BlockedNotice({ media }: { media: MediaSource }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const unblock = useUnblock();
  return (
    <>
      <p className="reader-note">{t('Reader_YouBlocked', { name: media.name })}</p>
      <button
        type="button"
        className="button"
        data-focus="unblock"
        aria-label={t('Reader_UnblockOne', { name: media.name })}
        onClick={() => unblock.mutate(media.media_id)}
      >
        {t('Reader_Unblock')}
      </button>
      <Link to={localizePath(locale, '/setting/block-list')}>{t('Reader_ManageBlocked')}</Link>
    </>
  );
}

/**
 * The publisher page's own actions, beside its header, once the reader's block list says
 * whether this publisher is blocked (the box keeps its height meanwhile). When blocking or
 * unblocking swaps the buttons, the keyboard lands on the opposite action, not the page top.
 */
export function PublisherActions({ media }: { media: MediaSource }) {
  const blocked = useBlockedPublisher(media.media_id);
  const box = useRef<HTMLDivElement>(null);
  const last = useRef(blocked);
  useEffect(() => {
    const before = last.current;
    last.current = blocked;
    if (before === undefined || blocked === undefined || before === blocked) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || box.current?.contains(active);
    if (!lost) return;
    box.current
      ?.querySelector<HTMLElement>(
        blocked ? '[data-focus="unblock"]' : '[data-focus="block"] button',
      )
      ?.focus();
  }, [blocked]);
  return (
    <div ref={box} className="reader-actions reader-actions--publisher">
      {blocked === true && <BlockedNotice media={media} />}
      {blocked === false && (
        <>
          <FollowButton media={media} />
          <span data-focus="block">
            <BlockButton media={media} />
          </span>
          <PublisherPushSwitch mediaId={media.media_id} name={media.name} />
        </>
      )}
    </div>
  );
}
