import { useContext, useId, useState } from 'react';
import { useMessages, useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { CardActionsContext, type CardActions } from '../../../components/CardActions';
import { localizePath } from '../../../lib/locale';
import {
  fullDate,
  hasImage,
  isAudio,
  isVideo,
  type NewsItem,
  type Reason,
  REASON_KEYS,
  relativeTime,
  thumbnailOf,
} from '../../../lib/news';
import { useAfterFirstPaint } from '../hooks';
import { Highlight } from './Highlight';
import { NewsImage } from './NewsImage';

export type CardVariant = 'lead' | 'row' | 'compact';

export const articlePath = (id: number) => `/article/${id}`;

/**
 * What a card already knows about its story, carried to the article in the navigation's
 * state so the article shows it at once while the body loads (D201).
 */
export const articlePreviewState = (item: NewsItem) => ({ preview: item });

/**
 * The stories last opened from cards, by id. A redirect on the way (the locale guard adds
 * `c` when the reader has stored one, D3) drops the navigation's state, and the story
 * must still show at once (issue 31, D378). A few are enough: only the one being opened
 * is ever read.
 */
const opened = new Map<number, NewsItem>();
const OPENED_KEPT = 8;

export function rememberOpened(item: NewsItem) {
  opened.delete(item.news_id);
  opened.set(item.news_id, item);
  for (const id of opened.keys()) {
    if (opened.size <= OPENED_KEPT) break;
    opened.delete(id);
  }
}

/** The card's story from the navigation's state, else as a card opened it, if it is `newsId`. */
export function articlePreview(state: unknown, newsId: number): NewsItem | null {
  const fromState =
    state && typeof state === 'object' ? (state as { preview?: unknown }).preview : undefined;
  const candidates = [fromState, opened.get(newsId)];
  for (const preview of candidates) {
    if (!preview || typeof preview !== 'object') continue;
    const item = preview as NewsItem;
    if (item.news_id === newsId && typeof item.title === 'string') return item;
  }
  return null;
}
export const mediaPath = (id: number) => `/media/${id}`;

/** The publisher's icon (or its initial) and name. */
export function PublisherBadge({ name, icon }: { name: string; icon: string }) {
  return (
    <>
      {icon ? (
        <img className="publisher-icon" src={icon} alt="" width={18} height={18} loading="lazy" />
      ) : (
        <span className="publisher-icon publisher-icon--initial" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      )}
      <span>{name}</span>
    </>
  );
}

/** A publish time as words ("5 minutes ago") with the full date for machines and hovers. */
export function TimeAgo({ ms }: { ms: number }) {
  const { locale } = useRouteHandle();
  if (!ms) return null;
  return (
    <time dateTime={new Date(ms).toISOString()} title={fullDate(ms, locale)}>
      {relativeTime(ms, locale)}
    </time>
  );
}

/** "Video" / "Audio" (§3 derived values) and "N sources" for a story cluster. */
export function NewsBadges({ item }: { item: NewsItem }) {
  const { t } = useTranslation();
  return (
    <>
      {isVideo(item) && (
        <span className="badge badge--media">
          <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true">
            <path fill="currentColor" d="M8 5v14l11-7z" />
          </svg>
          {t('News_Video')}
        </span>
      )}
      {isAudio(item) && (
        <span className="badge badge--media">
          <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true">
            <path
              fill="currentColor"
              d="M12 3a4 4 0 0 0-4 4v5a4 4 0 0 0 8 0V7a4 4 0 0 0-4-4Zm7 9a7 7 0 0 1-6 6.9V21h-2v-2.1A7 7 0 0 1 5 12h2a5 5 0 0 0 10 0h2Z"
            />
          </svg>
          {t('News_Audio')}
        </span>
      )}
      {item.cluster_size > 1 && (
        <span className="badge">{t('News_Sources', { count: item.cluster_size })}</span>
      )}
    </>
  );
}

/** "Why am I seeing this?" (D385): opens the card's reason, in words, below its meta line. */
function WhyButton({
  title,
  open,
  controls,
  onToggle,
}: {
  title: string;
  open: boolean;
  controls: string;
  onToggle: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={open ? 'card-why card-why--on' : 'card-why'}
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      aria-label={t('Why_ButtonOne', { title })}
      title={t('Why_Button')}
      onClick={() => onToggle(!open)}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          onToggle(false);
        }
      }}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
        <path
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          d="M9.6 9.4a2.5 2.5 0 1 1 3.4 2.4c-.6.3-1 .8-1 1.5v.4"
        />
        <circle cx="12" cy="16.8" r="1.2" fill="currentColor" />
      </svg>
    </button>
  );
}

/**
 * The card's reason in words. The reasons' messages are a part (D429), asked for when a
 * reader first opens one: until they arrive (a moment, or at once offline from the service
 * worker's copy) the line is there, empty, so the button's `aria-controls` names it.
 */
function WhyText({ reason, id }: { reason: Reason; id: string }) {
  const { t } = useTranslation();
  const ready = useMessages('why');
  return (
    <p className="news-card__why" id={id} aria-busy={!ready}>
      {ready ? t(REASON_KEYS[reason]) : null}
    </p>
  );
}

/**
 * The card's controls once the app has painted: why it is here (D385) and the reader's
 * actions (D266). The server-written first screen has none, and the meta line's reserved
 * box (news.css) keeps the card the same size when they appear.
 */
function CardActionsSlot({
  item,
  render,
  why,
}: {
  item: NewsItem;
  render: CardActions | null;
  why: { open: boolean; controls: string; onToggle: (open: boolean) => void };
}) {
  const afterFirstPaint = useAfterFirstPaint();
  if (!afterFirstPaint || (!render && !item.reason)) return null;
  return (
    <span className="news-card__actions">
      {item.reason && <WhyButton title={item.title} {...why} />}
      {render?.(item)}
    </span>
  );
}

/** A story in a list: the whole card opens the article; the publisher has its own link. */
export function NewsCard({
  item,
  variant = 'row',
  terms,
  headingLevel = 3,
}: {
  item: NewsItem;
  variant?: CardVariant;
  terms?: readonly string[];
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const titleId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const summary = item.summary || item.description;
  const showImage = variant !== 'compact' && hasImage(item);
  const actions = useContext(CardActionsContext);
  const whyId = useId();
  const [whyOpen, setWhyOpen] = useState(false);
  return (
    <article
      className={`news-card news-card--${variant}${showImage ? '' : ' news-card--no-image'}`}
      aria-labelledby={titleId}
    >
      <div className="news-card__body">
        <p className="news-card__kicker">
          {item.category_id && (
            <span className="news-card__category">{t(`Category_${item.category_id}`)}</span>
          )}
          <NewsBadges item={item} />
        </p>
        <Heading className="news-card__title" id={titleId}>
          <Link
            className="news-card__link"
            to={localizePath(locale, articlePath(item.news_id))}
            state={articlePreviewState(item)}
            onClick={() => rememberOpened(item)}
          >
            <Highlight text={item.title} terms={terms} />
          </Link>
        </Heading>
        {variant !== 'compact' && summary && (
          <p className="news-card__summary">
            <Highlight text={summary} terms={terms} />
          </p>
        )}
        <p className="news-card__meta">
          {item.media_id > 0 && (
            <Link
              className="news-card__publisher"
              to={localizePath(locale, mediaPath(item.media_id))}
            >
              <PublisherBadge name={item.media_name} icon={item.media_icon} />
            </Link>
          )}
          <TimeAgo ms={item.publish_time} />
          <CardActionsSlot
            item={item}
            render={actions}
            why={{ open: whyOpen, controls: whyId, onToggle: setWhyOpen }}
          />
        </p>
        {whyOpen && item.reason && <WhyText reason={item.reason} id={whyId} />}
      </div>
      {showImage && (
        <NewsImage
          className="news-card__image"
          src={thumbnailOf(item)}
          alt=""
          eager={variant === 'lead'}
        />
      )}
    </article>
  );
}
