import { ReactionsScreen } from '../../features/reader';

/** §2.2 /user/reaction: the stories the reader reacted to. */
export default function UserReaction() {
  return <ReactionsScreen />;
}
