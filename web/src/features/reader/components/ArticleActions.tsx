import { useTranslation } from '../../../i18n';
import { useAfterFirstPaint } from '../../news';
import { REACTION_EMOJI, REACTIONS, reactionLabelKey, type TopicKind } from '../api';
import { useReactions } from '../hooks';
import { useFollowTopic, useTopics } from '../settings';
import { SaveButton } from './SaveButtons';
import '../reader.css';

/** At most this many of a story's tags are offered to follow (the first ones). */
export const ARTICLE_TOPIC_TAGS = 5;

/**
 * Follow the story's category or one of its tags (D263): toggles named after the topic,
 * shown once the reader's topics are known, so a toggle never flips on arrival.
 */
export function FollowTopics({ tags, category }: { tags: readonly string[]; category: string }) {
  const { t } = useTranslation();
  const topics = useTopics();
  const change = useFollowTopic();
  const offered: Array<{ kind: TopicKind; value: string; name: string }> = [
    ...(category
      ? [{ kind: 'category' as const, value: category, name: t(`Category_${category}`) }]
      : []),
    ...tags
      .slice(0, ARTICLE_TOPIC_TAGS)
      .map((tag) => ({ kind: 'tag' as const, value: tag, name: tag })),
  ];
  if (offered.length === 0) return null;
  const list = topics.data;
  // The row keeps its height while the reader's topics load (reader.css), so nothing below
  // moves when the toggles arrive; without them (a failed list) it stays an empty row.
  if (!list) return <div className="topic-follow" aria-hidden="true" />;
  return (
    <div className="topic-follow" role="group" aria-label={t('Topics_FollowGroup')}>
      <span className="topic-follow__label" aria-hidden="true">
        {t('Topics_FollowGroup')}
      </span>
      {offered.map((topic) => {
        const followed = list.some(
          (f) => f.kind === topic.kind && f.value.toLowerCase() === topic.value.toLowerCase(),
        );
        return (
          <button
            key={`${topic.kind}:${topic.value}`}
            type="button"
            className={followed ? 'chip chip--toggle chip--on' : 'chip chip--toggle'}
            aria-pressed={followed}
            aria-label={t('Topics_FollowOne', { name: topic.name })}
            onClick={() =>
              change.mutate({ kind: topic.kind, value: topic.value, follow: !followed })
            }
          >
            <span aria-hidden="true">{followed ? '✓ ' : '+ '}</span>
            {topic.name}
          </button>
        );
      })}
    </div>
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
export function ArticleActions({
  newsId,
  tags = [],
  category = '',
}: {
  newsId: number;
  tags?: readonly string[];
  category?: string;
}) {
  const { t } = useTranslation();
  const afterFirstPaint = useAfterFirstPaint();
  if (!afterFirstPaint) return null;
  return (
    <section className="reader-actions" aria-label={t('Reader_Actions')}>
      <SaveButton newsId={newsId} />
      <ReactionBar newsId={newsId} />
      <FollowTopics tags={tags} category={category} />
    </section>
  );
}
