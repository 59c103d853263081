import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../app/context';
import { localizePath } from '../../../lib/locale';
import type { MediaSource } from '../../news';
import { useBlock, useFollow, useFollowList } from '../hooks';
import { ConfirmAction } from './Confirm';

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
  const { locale } = useRouteHandle();
  const block = useBlock();
  if (block.isSuccess) {
    return (
      <p className="reader-note" role="status">
        {t('Reader_BlockedNote', { name: media.name })}{' '}
        <Link to={localizePath(locale, '/setting/block-list')}>{t('Reader_ManageBlocked')}</Link>
      </p>
    );
  }
  return (
    <ConfirmAction
      label={t('Reader_Block')}
      question={t('Reader_BlockQuestion', { name: media.name })}
      confirmLabel={t('Reader_BlockConfirm')}
      disabled={block.isPending}
      onConfirm={() => block.mutate(media.media_id)}
    />
  );
}

/** The publisher page's own actions, beside its header. */
export function PublisherActions({ media }: { media: MediaSource }) {
  return (
    <div className="reader-actions reader-actions--publisher">
      <FollowButton media={media} />
      <BlockButton media={media} />
    </div>
  );
}
