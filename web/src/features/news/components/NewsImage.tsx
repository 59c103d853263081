import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useServices } from '../../../lib/services';
import { watchNear, PRELOAD_FACTOR } from '../../../lib/viewport';
import { useFirstScreen } from '../../../lib/firstScreen';
import { appConfigKey, fetchAppConfig } from '../../user';

/** §9.10 the placeholder's height is 56.3 % of its width (news.css `.news-image`). */
export const PLACEHOLDER_RATIO = 0.563;
/** §9.11 lazy images: default attempts (the app setting may say otherwise). */
export const DEFAULT_IMAGE_ATTEMPTS = 3;
/** §9.11 lazy images: at least this long between two attempts. */
export const IMAGE_THROTTLE_MS = 200;
/** §9.11 lazy images: how many loaded sources are remembered. */
export const IMAGE_CACHE_SIZE = 200;

export type ImageState = 'loading' | 'loaded' | 'error';

/** Sources that loaded before: shown at once, without the placeholder (§9.11 cache). */
const loadedSources = new Set<string>();

export function rememberLoaded(src: string): void {
  loadedSources.delete(src);
  loadedSources.add(src);
  while (loadedSources.size > IMAGE_CACHE_SIZE) {
    loadedSources.delete(loadedSources.values().next().value as string);
  }
}

export function isRemembered(src: string): boolean {
  return loadedSources.has(src);
}

export function forgetLoaded(): void {
  loadedSources.clear();
}

/** §9.11 attempts: the app config's `image_attempts` when the app has it, else 3. */
export function useImageAttempts(): number {
  const { api } = useServices();
  const { data } = useQuery({
    queryKey: appConfigKey,
    queryFn: () => fetchAppConfig(api),
    staleTime: Infinity,
    // Read what start-up or a flow already fetched; never ask just for this.
    enabled: false,
  });
  const configured = data?.image_attempts;
  return typeof configured === 'number' && configured >= 1
    ? Math.floor(configured)
    : DEFAULT_IMAGE_ATTEMPTS;
}

interface Props {
  src: string;
  /** "" for decorative images (the title beside them says it all). */
  alt: string;
  className?: string;
  /** Overrides the configured attempts (tests, special cases). */
  attempts?: number;
  /**
   * The largest image of the first screen (a lead card, an article's image): asked for
   * at once and first, not when seen, since it is in view from the start (the server
   * preloads it too, D147).
   */
  eager?: boolean;
}

/**
 * SPEC §4 images: a placeholder box (56.3 % high) with a loading marker; the real source
 * once the box is within 1.3 viewports; on error the error image, and new attempts
 * (at least 200 ms apart) until the attempt limit. States: loading, loaded, error.
 */
export function NewsImage(props: Props) {
  // A new source starts over.
  return <LazyImage key={props.src} {...props} />;
}

function LazyImage({ src, alt, className, attempts, eager = false }: Props) {
  const configured = useImageAttempts();
  const firstScreen = useFirstScreen();
  const maxAttempts = attempts ?? configured;
  const box = useRef<HTMLDivElement>(null);
  const remembered = src !== '' && isRemembered(src);
  const [near, setNear] = useState(remembered || eager);
  const [state, setState] = useState<ImageState>(
    src === '' ? 'error' : remembered ? 'loaded' : 'loading',
  );
  const [attempt, setAttempt] = useState(1);

  useEffect(() => {
    const element = box.current;
    if (near || !element) return;
    return watchNear(element, (isNear) => isNear && setNear(true), PRELOAD_FACTOR);
  }, [near]);

  useEffect(() => {
    if (state !== 'error' || src === '' || attempt >= maxAttempts) return;
    const timer = setTimeout(() => {
      setAttempt((n) => n + 1);
      setState('loading');
    }, IMAGE_THROTTLE_MS);
    return () => clearTimeout(timer);
  }, [state, attempt, maxAttempts, src]);

  return (
    <div
      ref={box}
      className={className ? `news-image ${className}` : 'news-image'}
      data-state={state}
      data-attempt={attempt}
      data-eager={eager || undefined}
    >
      {near && state !== 'error' && (
        <img
          key={attempt}
          className="news-image__img"
          src={src}
          alt={alt}
          // The first screen's image paints with the text around it, not a frame later.
          decoding={eager ? 'sync' : 'async'}
          fetchPriority={eager ? 'high' : undefined}
          onLoad={() => {
            rememberLoaded(src);
            setState('loaded');
          }}
          onError={() => setState('error')}
        />
      )}
      {state === 'loading' && !eager && !firstScreen && (
        <span className="news-image__marker" aria-hidden="true" />
      )}
      {state === 'error' && (
        <span
          className="news-image__error"
          {...(alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true })}
        >
          <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
            <path
              fill="currentColor"
              d="M5 4h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm0 2v9.6l3.3-3.3a1 1 0 0 1 1.4 0L12 14.6l2.3-2.3a1 1 0 0 1 1.4 0L19 15.6V6H5Zm10 1.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3ZM3.3 2.3l18.4 18.4-1.4 1.4L1.9 3.7l1.4-1.4Z"
            />
          </svg>
        </span>
      )}
    </div>
  );
}
