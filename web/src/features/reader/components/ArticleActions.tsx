import { useTranslation } from 'react-i18next';
import { useAfterFirstPaint } from '../../news';
import { REACTION_EMOJI, REACTIONS, reactionLabelKey } from '../api';
import { useReactions, useSaved } from '../hooks';

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
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path
          fill={saved ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="2"
          d="M6 3h12a1 1 0 0 1 1 1v17l-7-4-7 4V4a1 1 0 0 1 1-1Z"
        />
      </svg>
      {saved ? t('Reader_Saved') : t('Reader_Save')}
    </button>
  );
}

/** The six reactions with their counts; the reader's own is pressed, pressing it again takes it back. */
export function ReactionBar({ newsId }: { newsId: number }) {
  const { t } = useTranslation();
  const { query, react } = useReactions(newsId);
  const summary = query.data;
  return (
    <div className="reaction-bar" role="group" aria-label={t('Reader_Reactions')}>
      {summary &&
        REACTIONS.map((reaction) => {
          const count = summary.counts[reaction] ?? 0;
          const label = t(reactionLabelKey(reaction));
          const mine = summary.mine === reaction;
          return (
            <button
              key={reaction}
              type="button"
              className={mine ? 'reaction reaction--mine' : 'reaction'}
              aria-pressed={mine}
              aria-label={t('Reader_ReactionCount', { label, count })}
              title={label}
              onClick={() => react(reaction)}
            >
              <span aria-hidden="true">{REACTION_EMOJI[reaction]}</span>
              <span className="reaction__count" aria-hidden="true">
                {count}
              </span>
            </button>
          );
        })}
    </div>
  );
}

/**
 * At the story's end, below its first screen: save, then react. Rendered after the first
 * paint, so the server-written first screen (D230 golden) is the same with or without it.
 */
export function ArticleActions({ newsId }: { newsId: number }) {
  const { t } = useTranslation();
  const afterFirstPaint = useAfterFirstPaint();
  if (!afterFirstPaint) return null;
  return (
    <section className="reader-actions" aria-label={t('Reader_Actions')}>
      <SaveButton newsId={newsId} />
      <ReactionBar newsId={newsId} />
    </section>
  );
}
