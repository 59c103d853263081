import type { UseQueryResult } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { EmptyState, Section } from '../../../components/Screen';
import { isApiError } from '../../../lib/api';
import { localizePath } from '../../../lib/locale';
import { ErrorState } from '../../news';
import type { UsageAnswer, UsageCount, UsageRange } from '../api';
import { useExportUsage } from '../hooks';
import { presetOf, lastDays, RANGE_PRESETS } from '../range';
import { UsageChart } from './UsageChart';

/** A 400's message: the server says what to fix in the range (D335). */
function rangeMessage(error: unknown): string | null {
  return isApiError(error) && error.status === 400 ? error.message : null;
}

function RangePicker({
  range,
  onRange,
  error,
  errorId,
}: {
  range: UsageRange;
  onRange: (range: UsageRange) => void;
  error: string | null;
  errorId: string;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(range);
  const active = presetOf(range);

  function choose(days: number) {
    const next = lastDays(days);
    setDraft(next);
    onRange(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    onRange(draft);
  }

  const described = error ? { 'aria-describedby': errorId, 'aria-invalid': true } : {};
  return (
    <form className="admin-range" onSubmit={submit} aria-label={t('Admin_Range')}>
      <div className="admin-range__presets" role="group" aria-label={t('Admin_Presets')}>
        {RANGE_PRESETS.map((days) => (
          <button
            key={days}
            type="button"
            className="button"
            aria-pressed={active === days}
            onClick={() => choose(days)}
          >
            {t('Admin_LastDays', { n: days })}
          </button>
        ))}
      </div>
      <div className="admin-range__dates">
        <label className="admin-field">
          <span>{t('Admin_From')}</span>
          <input
            type="date"
            value={draft.from}
            onChange={(e) => setDraft({ ...draft, from: e.target.value })}
            {...described}
          />
        </label>
        <label className="admin-field">
          <span>{t('Admin_To')}</span>
          <input
            type="date"
            value={draft.to}
            onChange={(e) => setDraft({ ...draft, to: e.target.value })}
            {...described}
          />
        </label>
        <button type="submit" className="button button--primary">
          {t('Admin_ShowRange')}
        </button>
      </div>
      <p className="admin-hint">{t('Admin_RangeHint')}</p>
      {error && (
        <p id={errorId} className="admin-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** A top-20 list as a table; top stories link to their article. */
function CountsTable({
  caption,
  name,
  counts,
  storyLinks = false,
}: {
  caption: string;
  name: string;
  counts: UsageCount[];
  storyLinks?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { locale } = useRouteHandle();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{name}</th>
            <th scope="col" className="admin-table__number">
              {t('Admin_Count')}
            </th>
          </tr>
        </thead>
        <tbody>
          {counts.length === 0 ? (
            <tr>
              <td colSpan={2} className="admin-table__none">
                {t('Admin_NoneInRange')}
              </td>
            </tr>
          ) : (
            counts.map((c) => (
              <tr key={c.key}>
                <th scope="row">
                  {storyLinks && /^\d+$/.test(c.key) ? (
                    <Link to={localizePath(locale, `/article/${c.key}`)}>{c.label || c.key}</Link>
                  ) : (
                    c.label || c.key || t('Admin_NotSet')
                  )}
                </th>
                <td className="admin-table__number">{number.format(c.count)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

function isEmpty(usage: UsageAnswer): boolean {
  return usage.days.every((d) => d.events === 0 && d.page_views === 0 && d.readers === 0);
}

function UsageReport({ usage }: { usage: UsageAnswer }) {
  const { t } = useTranslation();
  if (isEmpty(usage)) {
    return <EmptyState title={t('Admin_UsageEmpty')} hint={t('Admin_UsageEmptyHint')} />;
  }
  return (
    <>
      <UsageChart days={usage.days} />
      <div className="admin-grid">
        <CountsTable
          caption={t('Admin_CoreFunctions')}
          name={t('Admin_Function')}
          counts={usage.core_functions}
        />
        <CountsTable
          caption={t('Admin_TopStories')}
          name={t('Admin_Story')}
          counts={usage.top_stories}
          storyLinks
        />
        <CountsTable
          caption={t('Admin_SearchTerms')}
          name={t('Admin_Term')}
          counts={usage.search_terms}
        />
        <CountsTable
          caption={t('Admin_Channels')}
          name={t('Admin_Channel')}
          counts={usage.channels}
        />
        <CountsTable
          caption={t('Admin_Countries')}
          name={t('Admin_Country')}
          counts={usage.countries}
        />
        <CountsTable
          caption={t('Admin_Languages')}
          name={t('Admin_Language')}
          counts={usage.languages}
        />
      </div>
    </>
  );
}

/** D343 usage: a range of UTC days, the daily chart with its numbers, the top lists, the export. */
export function UsageSection({
  range,
  onRange,
  usage,
}: {
  range: UsageRange;
  onRange: (range: UsageRange) => void;
  usage: UseQueryResult<UsageAnswer>;
}) {
  const { t } = useTranslation();
  const errorId = useId();
  const exporter = useExportUsage();
  const rangeError = rangeMessage(usage.error) ?? rangeMessage(exporter.error);

  function changeRange(next: UsageRange) {
    exporter.reset();
    onRange(next);
  }

  return (
    <Section title={t('Admin_Usage')}>
      <RangePicker range={range} onRange={changeRange} error={rangeError} errorId={errorId} />
      <div className="admin-actions">
        <button
          type="button"
          className="button"
          aria-busy={exporter.isPending}
          disabled={exporter.isPending}
          onClick={() => exporter.mutate(range)}
        >
          {exporter.isPending ? t('Admin_Exporting') : t('Admin_Export')}
        </button>
        <span className="admin-hint">
          {t('Admin_ExportHint', { from: range.from, to: range.to })}
        </span>
      </div>
      {exporter.isError && !rangeMessage(exporter.error) && (
        <p className="admin-error" role="alert">
          {t('Admin_ExportFailed')}
        </p>
      )}
      {usage.isPending ? (
        <p role="status">{t('Web_Loading')}</p>
      ) : usage.isError ? (
        rangeMessage(usage.error) ? null : (
          <ErrorState error={usage.error} onRetry={() => void usage.refetch()} compact />
        )
      ) : (
        <UsageReport usage={usage.data} />
      )}
    </Section>
  );
}
