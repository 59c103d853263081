import { AdminScreen } from '../../features/admin';

/** The screen's messages (D423): the route waits for them. */
export { adminMessages as ready } from '../../features/admin';

/** D340 /admin: the operator's usage and feeds (issue 21; §1.8 usage reporting). */
export default function Admin() {
  return <AdminScreen />;
}
