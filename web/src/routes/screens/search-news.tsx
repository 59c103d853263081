import { SearchScreen } from '../../features/search';
import { loadMessages } from '../../i18n';

/** Search’s own messages are a part of their own (D429). */
export const ready = loadMessages('search');

/** SPEC §2.6 search: news. */
export default function SearchNews() {
  return <SearchScreen kind="news" />;
}
