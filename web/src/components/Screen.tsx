import { useEffect, useId, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { useRouteHandle } from '../lib/routeHandle';

/** §9.8 page-head update wait. */
export const HEAD_UPDATE_WAIT_MS = 100;

/** Sets `<title>` ("{Title} · Localwire", as the server does) and the meta description. */
export function usePageHead(title: string, description?: string) {
  const { t } = useTranslation();
  const appName = t('App_Name');
  useEffect(() => {
    const timer = setTimeout(() => {
      document.title = title === appName ? title : `${title} · ${appName}`;
      if (description) {
        document.querySelector('meta[name="description"]')?.setAttribute('content', description);
      }
    }, HEAD_UPDATE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [title, description, appName]);
}

/**
 * The frame of every screen: title and description from the route table (or the ones
 * given, e.g. a category's name), then sections.
 */
export function Screen({
  children,
  title: ownTitle,
  description: ownDescription,
}: {
  children?: ReactNode;
  title?: string;
  description?: string;
}) {
  const { t } = useTranslation();
  const { def } = useRouteHandle();
  const title = ownTitle || (def ? t(def.title) : t('App_Name'));
  const description = ownDescription ?? (def ? t(def.description) : undefined);
  usePageHead(title, description);
  return (
    <article className="screen">
      <div className="screen__head">
        <h1 className="screen__title">{title}</h1>
        {description && <p className="screen__lede">{description}</p>}
      </div>
      {children}
    </article>
  );
}

export function Section({ title, children }: { title: string; children?: ReactNode }) {
  const id = useId();
  return (
    <section className="section" aria-labelledby={id}>
      <h2 id={id} className="section__title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** An honest empty state: what is missing, and why; `children` say where to go about it. */
export function EmptyState({
  title,
  hint,
  children,
}: {
  title: string;
  hint?: string;
  children?: ReactNode;
}) {
  return (
    <div className="empty">
      <svg className="empty__icon" viewBox="0 0 24 24" width="32" height="32" aria-hidden="true">
        <path
          fill="currentColor"
          d="M4 4h13a3 3 0 0 1 3 3v11a2 2 0 0 1-2 2H6a3 3 0 0 1-3-3V5a1 1 0 0 1 1-1Zm1 2v11a1 1 0 0 0 1 1h12V7a1 1 0 0 0-1-1H5Zm2 2h8v2H7V8Zm0 4h8v2H7v-2Z"
        />
      </svg>
      <p className="empty__title">{title}</p>
      {hint && <p className="empty__hint">{hint}</p>}
      {children}
    </div>
  );
}

/** A screen whose stories come from a later feature: the real layout with an empty list. */
export function StoryListScreen({
  sectionTitle,
  emptyTitle,
  emptyHint,
  children,
}: {
  sectionTitle?: string;
  emptyTitle?: string;
  emptyHint?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Screen>
      {children}
      <Section title={sectionTitle ?? t('Section_Stories')}>
        <EmptyState
          title={emptyTitle ?? t('Empty_Stories')}
          hint={emptyHint ?? t('Empty_StoriesHint')}
        />
      </Section>
    </Screen>
  );
}
