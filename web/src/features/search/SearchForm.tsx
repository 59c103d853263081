import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { useNavigate, useSearchParams } from 'react-router';

/**
 * The search box; it keeps the query in the URL (`?q=`) of the given results page, with
 * the filters named in `keep` (place, category, time) carried over.
 */
export function SearchForm({
  action,
  initial,
  keep = [],
}: {
  action: string;
  initial: string;
  keep?: readonly string[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [current] = useSearchParams();
  const id = useId();
  const [query, setQuery] = useState(initial);

  function submit(event: FormEvent) {
    event.preventDefault();
    const q = query.trim();
    const next = new URLSearchParams();
    if (q) next.set('q', q);
    for (const key of keep) {
      const value = current.get(key);
      if (value) next.set(key, value);
    }
    const search = next.toString();
    navigate(search ? `${action}?${search}` : action);
  }

  return (
    <form role="search" className="search-form" onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        {t('Search_Label')}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        className="search-form__input"
        value={query}
        placeholder={t('Search_Label')}
        onChange={(event) => setQuery(event.target.value)}
      />
      <button type="submit" className="button button--primary">
        {t('Search_Submit')}
      </button>
    </form>
  );
}
