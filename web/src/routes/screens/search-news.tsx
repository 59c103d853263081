import { SearchScreen } from '../../features/search';

/** SPEC §2.6 search: news. */
export default function SearchNews() {
  return <SearchScreen kind="news" />;
}
