import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** The search box; it keeps the query in the URL (`?q=`) of the given results page. */
export function SearchForm({ action, initial }: { action: string; initial: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useId();
  const [query, setQuery] = useState(initial);

  function submit(event: FormEvent) {
    event.preventDefault();
    const q = query.trim();
    navigate(q ? `${action}?q=${encodeURIComponent(q)}` : action);
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
