import { useTranslation } from '../../../i18n';
import { NavLink } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
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

/**
 * The channels home can show as tabs (D261): latest, top and the 13 categories. `local` is
 * both a channel and a category id, and is the Local category's tab, as in the default row.
 */
export const HOME_CHANNEL_IDS = ['latest', 'top', ...CATEGORY_IDS] as const;

export function isHomeChannel(value: string): boolean {
  return (HOME_CHANNEL_IDS as readonly string[]).includes(value);
}

/** Where a channel's tab goes: latest and top have their own pages, the rest are categories. */
export function channelPath(id: string): string {
  if (id === 'latest') return '/latest';
  if (id === 'top') return '/top-news';
  return `/category/${id}`;
}

/** The catalogue key of a channel's name. */
export function channelLabelKey(id: string): string {
  if (id === 'latest') return 'Nav_Latest';
  if (id === 'top') return 'Nav_Top';
  return `Category_${id}`;
}

/**
 * A row of category tabs (GET /api/news/categories); the static list until it answers.
 * `channels`: the reader's own tabs in their order (D264), instead of the default row.
 */
export function CategoryTabs({ channels }: { channels?: readonly string[] }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const { data } = useCategories();
  const names = new Map((data ?? []).map((c) => [c.id, c.name]));
  const list: Array<{ id: string; name: string; to?: string }> =
    channels && channels.length > 0
      ? channels
          .filter(isHomeChannel)
          .map((id) => ({ id, name: names.get(id) || t(channelLabelKey(id)), to: channelPath(id) }))
      : data && data.length > 0
        ? data
        : CATEGORY_IDS.map((id) => ({ id, name: t(`Category_${id}`) }));
  return (
    <nav className="category-tabs" aria-label={t('News_Categories')}>
      <ul className="category-tabs__list">
        {list.map((category) => (
          <li key={category.id}>
            <NavLink
              className="category-tabs__link"
              to={localizePath(locale, category.to ?? `/category/${category.id}`)}
            >
              {category.name || t(`Category_${category.id}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
