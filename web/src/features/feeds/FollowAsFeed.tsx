import { useSyncExternalStore } from 'react';
import { useTranslation } from '../../i18n';
import { useLocation } from 'react-router';
import { useRouteHandle } from '../../lib/routeHandle';
import { splitLocalePath } from '../../lib/locale';
import { useReader } from '../news';
import { FEED_FORMATS, feedPath } from './feedPath';

const neverChanges = () => () => {};
const inBrowser = () => true;
/** A server render (the golden test's) has no control: the server's first screen has none. */
const onServer = () => false;

/**
 * "Follow as a feed": the page's list in RSS, Atom and JSON Feed, for a feed reader
 * (D376). Shown once the app runs: the server's first screen has the same links in its
 * head for feed readers, and the first screen stays the same in both renderers (D230).
 */
export function FollowAsFeed() {
  const { t } = useTranslation();
  const { def, locale } = useRouteHandle();
  const { pathname, search } = useLocation();
  const { cityId } = useReader();
  const running = useSyncExternalStore(neverChanges, inBrowser, onServer);
  const path = feedPath(def, locale, splitLocalePath(pathname).path, search, cityId);
  if (!running || path === null) return null;
  return (
    <details className="feed-follow">
      <summary className="feed-follow__summary">{t('Feed_Follow')}</summary>
      <p className="feed-follow__hint">{t('Feed_FollowHint')}</p>
      <ul className="site-footer__links">
        {FEED_FORMATS.map(({ format, type, label }) => (
          <li key={format}>
            <a href={`/feeds/${format}${path}`} type={type}>
              {label}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
