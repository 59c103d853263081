import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n';
import { isApiError } from '../../../lib/api';
import { usePopup } from '../../../components/popup';
import type { AddFeedRequest, FeedCountry, FeedLang } from '../api';
import { useAddFeed } from '../hooks';

const COUNTRIES: FeedCountry[] = ['US', 'CA'];
const LANGS: FeedLang[] = ['en', 'es', 'fr'];
const LANG_KEYS: Record<FeedLang, string> = {
  en: 'Admin_LangEn',
  es: 'Admin_LangEs',
  fr: 'Admin_LangFr',
};

const EMPTY: AddFeedRequest = {
  url: '',
  name: '',
  country: 'US',
  state: '',
  city: '',
  lang: 'en',
  category: '',
};

/** Add one feed: the server fetches it once and says what is wrong when it cannot (400). */
export function AddFeedForm() {
  const { t } = useTranslation();
  const popup = usePopup();
  const add = useAddFeed();
  const [form, setForm] = useState<AddFeedRequest>(EMPTY);
  const errorId = useId();
  const error = add.isError
    ? isApiError(add.error) && add.error.message
      ? add.error.message
      : t('Web_UnknownError')
    : null;

  const set = (field: keyof AddFeedRequest) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate(form, {
      onSuccess: (row) => {
        setForm(EMPTY);
        popup.show({ text: t('Admin_FeedAdded', { publisher: row.publisher }), kind: 'success' });
      },
    });
  }

  return (
    <form className="admin-form" onSubmit={submit} aria-labelledby={`${errorId}-title`}>
      <h3 id={`${errorId}-title`} className="admin-form__title">
        {t('Admin_AddFeed')}
      </h3>
      <label className="admin-field admin-field--wide">
        <span>{t('Admin_FeedUrl')}</span>
        <input
          type="url"
          required
          inputMode="url"
          placeholder="https://example.org/feed.xml"
          value={form.url}
          onChange={set('url')}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
        />
      </label>
      <label className="admin-field">
        <span>{t('Admin_FeedName')}</span>
        <input type="text" value={form.name} onChange={set('name')} />
      </label>
      <label className="admin-field">
        <span>{t('Admin_Country')}</span>
        <select value={form.country} onChange={set('country')}>
          {COUNTRIES.map((c) => (
            <option key={c} value={c}>
              {t(`Country_${c}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="admin-field">
        <span>{t('Admin_State')}</span>
        <input type="text" value={form.state} onChange={set('state')} />
      </label>
      <label className="admin-field">
        <span>{t('Admin_City')}</span>
        <input type="text" value={form.city} onChange={set('city')} />
      </label>
      <label className="admin-field">
        <span>{t('Admin_Language')}</span>
        <select value={form.lang} onChange={set('lang')}>
          {LANGS.map((lang) => (
            <option key={lang} value={lang}>
              {t(LANG_KEYS[lang])}
            </option>
          ))}
        </select>
      </label>
      <label className="admin-field">
        <span>{t('Admin_Category')}</span>
        <input type="text" value={form.category} onChange={set('category')} />
      </label>
      <p className="admin-hint admin-field--wide">{t('Admin_AddFeedHint')}</p>
      <div className="admin-actions admin-field--wide">
        <button
          type="submit"
          className="button button--primary"
          disabled={add.isPending}
          aria-busy={add.isPending}
        >
          {add.isPending ? t('Admin_Adding') : t('Admin_AddFeedAction')}
        </button>
      </div>
      {error && (
        <p id={errorId} className="admin-error admin-field--wide" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
