import { useTranslation } from '../../i18n';
import { useParams } from 'react-router';
import { Screen } from '../../components/Screen';
import {
  CategoryTabs,
  isCategoryId,
  MissingState,
  NewsFeed,
  NoStories,
  useCategories,
  useFeed,
} from '../../features/news';
import { leadsWithFirst } from '../../shared/screens';

/** SPEC §2.14 category: its stories, newest first, with the category tabs. */
export default function Category() {
  const { t } = useTranslation();
  const { category = '' } = useParams();
  const known = isCategoryId(category);
  const { data: categories } = useCategories();
  const feed = useFeed({ channel: 'category', category, enabled: known });
  if (!known) {
    return (
      <MissingState
        title={t('Missing_Category', { name: category })}
        hint={t('Missing_CategoryHint')}
      />
    );
  }
  const name = categories?.find((c) => c.id === category)?.name || t(`Category_${category}`);
  return (
    <Screen title={name} description={t('Category_Lede', { category: name })}>
      <CategoryTabs />
      <NewsFeed query={feed} leadFirst={leadsWithFirst('category')} empty={<NoStories />} />
    </Screen>
  );
}
