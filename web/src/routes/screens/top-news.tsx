import { Screen } from '../../components/Screen';
import { CategoryTabs, NewsFeed, NoStories, useFeed } from '../../features/news';
import { leadsWithFirst } from '../../shared/screens';

/** SPEC §2.5 top news, ranked by the server (cluster size, publisher diversity, recency). */
export default function TopNews() {
  const feed = useFeed({ channel: 'top' });
  return (
    <Screen>
      <CategoryTabs />
      <NewsFeed query={feed} leadFirst={leadsWithFirst('top-news')} empty={<NoStories />} />
    </Screen>
  );
}
