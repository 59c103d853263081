import { useTranslation } from 'react-i18next';
import { NavLink, useSearchParams } from 'react-router';
import { useRouteHandle } from '../../app/context';
import { EmptyState, Screen, Section } from '../../components/Screen';
import { localizePath } from '../../lib/locale';
import { SearchForm } from './SearchForm';

/** SPEC §2.6 search and its children news and media. The search endpoint is a later issue. */
export function SearchScreen({ kind }: { kind: 'news' | 'media' | null }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const [params] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const suffix = q ? `?q=${encodeURIComponent(q)}` : '';
  const action = localizePath(locale, kind === 'media' ? '/search/media' : '/search/news');
  return (
    <Screen>
      <SearchForm key={q} action={action} initial={q} />
      <nav className="tabs" aria-label={t('Title_search')}>
        <NavLink className="tabs__link" to={localizePath(locale, '/search/news') + suffix}>
          {t('Search_News')}
        </NavLink>
        <NavLink className="tabs__link" to={localizePath(locale, '/search/media') + suffix}>
          {t('Search_Media')}
        </NavLink>
      </nav>
      <Section title={kind === 'media' ? t('Section_Publishers') : t('Section_Stories')}>
        <EmptyState
          title={q ? t('Empty_SearchFor', { q }) : t('Empty_Search')}
          hint={t('Empty_StoriesHint')}
        />
      </Section>
    </Screen>
  );
}
