import { useTranslation } from '../../../i18n';
import { useSaved } from '../saved';
import { BookmarkIcon } from './CardSaveButton';
import '../reader.css';

/** Save / Saved: shown once the reader's saved stories are known, so it never flips. */
export function SaveButton({ newsId }: { newsId: number }) {
  const { t } = useTranslation();
  const { saved, toggle } = useSaved(newsId);
  if (saved === undefined) return null;
  return (
    <button
      type="button"
      className={saved ? 'button reader-toggle reader-toggle--on' : 'button reader-toggle'}
      aria-pressed={saved}
      onClick={toggle}
    >
      <BookmarkIcon filled={saved} />
      {saved ? t('Reader_Saved') : t('Reader_Save')}
    </button>
  );
}
