import { SearchScreen } from '../../features/search';

/** SPEC §2.6 search. */
export default function Search() {
  return <SearchScreen kind={null} />;
}
