import { FollowingScreen } from '../../features/reader';

/** §2.2 /user/following: the publishers the reader follows. */
export default function UserFollowing() {
  return <FollowingScreen />;
}
