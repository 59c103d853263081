import { useTranslation } from '../../../i18n';
import { useSaved } from '../saved';

const BOOKMARK_PATH = 'M6 3h12a1 1 0 0 1 1 1v17l-7-4-7 4V4a1 1 0 0 1 1-1Z';

/** The bookmark both buttons draw: filled once the story is saved. */
export function BookmarkIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth="2"
        d={BOOKMARK_PATH}
      />
    </svg>
  );
}

/**
 * Save on a news card (D266): the same saved state as the article's button, an icon with
 * the story's title as its name. Its box is reserved by the card, so it never shifts it.
 * Its look is the card's (news.css), not reader.css: every list shows it (D429).
 */
export function CardSaveButton({ newsId, title }: { newsId: number; title: string }) {
  const { t } = useTranslation();
  const { saved, toggle } = useSaved(newsId);
  if (saved === undefined) return null;
  const label = t('Reader_SaveOne', { title });
  return (
    <button
      type="button"
      className={saved ? 'card-save card-save--on' : 'card-save'}
      aria-pressed={saved}
      aria-label={label}
      title={saved ? t('Reader_Saved') : t('Reader_Save')}
      onClick={toggle}
    >
      <BookmarkIcon filled={saved} />
    </button>
  );
}
