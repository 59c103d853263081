import { useId, type ReactNode } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { localizePath } from '../../../lib/locale';
import type { FeedContext } from '../../../lib/news';

/** A titled section with an optional "see all" link beside the title. */
export function FeedSection({
  title,
  more,
  children,
}: {
  title: string;
  more?: { to: string; label: string };
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <section className="section" aria-labelledby={id}>
      <div className="section-head">
        <h2 id={id} className="section__title">
          {title}
        </h2>
        {more && (
          <Link className="section-head__more" to={more.to}>
            {more.label}
          </Link>
        )}
      </div>
      {children}
    </section>
  );
}

/**
 * Says when a quiet city's feed was widened (docs/api-reading.md, local context.scope).
 * `city` is the label the screen already shows for the city (the section title), so the
 * note names it the same way; the feed context's own name is used only without one (the
 * gazetteer's "Washington D. C., DC" beside a title saying "Washington, DC" reads as two
 * places).
 */
export function ScopeNote({ context, city: label }: { context?: FeedContext; city: string }) {
  const { t } = useTranslation();
  const scope = context?.scope;
  if (!scope || scope === 'city') return null;
  const city = label || context.city?.city_show || context.city?.name || '';
  const area = context.area_name || city;
  const text =
    scope === 'nearby'
      ? t('Local_ScopeNearby', { city })
      : scope === 'state'
        ? t('Local_ScopeState', { city, area })
        : t('Local_ScopeCountry', { city, area });
  return (
    <p className="scope-note" role="note">
      {text}
    </p>
  );
}

/** A real "not found" state: what is missing and where to go instead. */
export function MissingState({ title, hint }: { title: string; hint: string }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  return (
    <div className="missing" role="region" aria-labelledby="missing-title">
      <p className="error-screen__status">404</p>
      <h1 id="missing-title" className="screen__title">
        {title}
      </h1>
      <p className="screen__lede">{hint}</p>
      <p className="missing__links">
        <Link className="button button--primary" to={localizePath(locale, '/')}>
          {t('Missing_Home')}
        </Link>
        <Link className="button" to={localizePath(locale, '/latest')}>
          {t('Missing_Latest')}
        </Link>
      </p>
    </div>
  );
}
