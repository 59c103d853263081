import { HistoryScreen } from '../../features/reader';

/** §2.2 /user/read: the reader's history. */
export default function UserRead() {
  return <HistoryScreen />;
}
