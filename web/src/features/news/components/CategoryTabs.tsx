import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useRouteHandle } from '../../../app/context';
import { localizePath } from '../../../lib/locale';
import { useCategories } from '../hooks';

/** The 13 category ids in display order (D62); names come from the API, else the catalogue. */
export const CATEGORY_IDS = [
  'local',
  'politics',
  'business',
  'sports',
  'entertainment',
  'health',
  'science-tech',
  'weather',
  'crime-safety',
  'education',
  'food',
  'lifestyle',
  'opinion',
] as const;

export function isCategoryId(value: string): boolean {
  return (CATEGORY_IDS as readonly string[]).includes(value);
}

/** A row of category tabs (GET /api/news/categories); the static list until it answers. */
export function CategoryTabs() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const { data } = useCategories();
  const list =
    data && data.length > 0 ? data : CATEGORY_IDS.map((id) => ({ id, name: t(`Category_${id}`) }));
  return (
    <nav className="category-tabs" aria-label={t('News_Categories')}>
      <ul className="category-tabs__list">
        {list.map((category) => (
          <li key={category.id}>
            <NavLink
              className="category-tabs__link"
              to={localizePath(locale, `/category/${category.id}`)}
            >
              {category.name || t(`Category_${category.id}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
