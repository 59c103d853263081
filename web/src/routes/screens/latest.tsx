import { Screen } from '../../components/Screen';
import { CategoryTabs, NewsFeed, NoStories, useFeed } from '../../features/news';
import { leadsWithFirst } from '../../shared/screens';

/** SPEC §2.4 latest news, newest first, paging on. */
export default function Latest() {
  const feed = useFeed({ channel: 'latest' });
  return (
    <Screen>
      <CategoryTabs />
      <NewsFeed query={feed} leadFirst={leadsWithFirst('latest')} empty={<NoStories />} />
    </Screen>
  );
}
