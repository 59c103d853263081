import { SearchScreen } from '../../features/search';

/** SPEC §2.6 search: publishers. */
export default function SearchMedia() {
  return <SearchScreen kind="media" />;
}
