import { useTranslation } from '../../../i18n';
import { EmptyState, Screen, Section } from '../../../components/Screen';
import { ErrorState, ListSkeleton } from '../../news';
import {
  historyDateLabel,
  isEmptyDay,
  type HistoryDay,
  type HistoryEntry,
  type HistoryPage,
} from '../api';
import { useHistoryDay } from '../hooks';

/** §2.9 today in history: Wikipedia's entries for the reader's date, local ones first (D292). */
export function HistoryScreen() {
  const { t } = useTranslation();
  const { query, lang } = useHistoryDay();
  if (query.isPending) {
    return (
      <Screen>
        <ListSkeleton label={t('History_Loading')} />
      </Screen>
    );
  }
  if (query.isError) {
    return (
      <Screen>
        <ErrorState
          title={t('History_Unavailable')}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      </Screen>
    );
  }
  return (
    <Screen>
      <Day day={query.data} locale={lang} />
    </Screen>
  );
}

function Day({ day, locale }: { day: HistoryDay; locale: string }) {
  const { t } = useTranslation();
  const place = day.place.city;
  return (
    <>
      <p className="history-lede">
        {t('History_Lede', { date: historyDateLabel(day.date, locale), place })}
      </p>
      {day.demo && (
        <p className="history-demo" role="note">
          {t('History_Demo')}
        </p>
      )}
      {isEmptyDay(day) ? (
        <EmptyState title={t('Empty_History')} hint={t('Empty_HistoryHint')} />
      ) : (
        day.sections
          .filter((s) => s.entries.length > 0)
          .map((s) => (
            <Section key={s.kind} title={t(`History_Section_${s.kind}`)}>
              <ol className="history-list">
                {s.entries.map((e, i) => (
                  <Entry key={i} entry={e} place={place} lang={day.lang} />
                ))}
              </ol>
            </Section>
          ))
      )}
      <p className="history-attribution">
        <a href={day.attribution.source_url} hrefLang={day.lang}>
          {t('History_Source')}
        </a>
        {' · '}
        <a href={day.attribution.license_url} rel="license">
          {t('History_License', { license: day.attribution.license })}
        </a>
      </p>
    </>
  );
}

function Entry({ entry, place, lang }: { entry: HistoryEntry; place: string; lang: string }) {
  const { t } = useTranslation();
  return (
    <li className={entry.local ? 'history-entry history-entry--local' : 'history-entry'}>
      {entry.local && <span className="history-entry__badge">{t('History_Local', { place })}</span>}
      <p className="history-entry__text" lang={lang}>
        {entry.year !== undefined && <span className="history-entry__year">{entry.year}</span>}
        {entry.text}
      </p>
      {entry.pages.length > 0 && (
        <ul className="history-pages">
          {entry.pages.map((p) => (
            <Page key={p.url} page={p} lang={lang} />
          ))}
        </ul>
      )}
    </li>
  );
}

function Page({ page, lang }: { page: HistoryPage; lang: string }) {
  return (
    <li className="history-page">
      {page.image && (
        // Decorative beside the article's name; the box is reserved so nothing shifts.
        <img
          className="history-page__image"
          src={page.image.src}
          alt=""
          width={64}
          height={64}
          loading="lazy"
          decoding="async"
        />
      )}
      <div>
        <a href={page.url} hrefLang={lang} lang={lang}>
          {page.title}
        </a>
        {page.description && (
          <p className="history-page__description" lang={lang}>
            {page.description}
          </p>
        )}
      </div>
    </li>
  );
}
