import { SavedScreen } from '../../features/reader';

/** §2.2 /user/favorites: the reader's saved stories. */
export default function UserFavorites() {
  return <SavedScreen />;
}
