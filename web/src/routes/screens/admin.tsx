import { AdminScreen } from '../../features/admin';

/** D340 /admin: the operator's usage and feeds (issue 21; §1.8 usage reporting). */
export default function Admin() {
  return <AdminScreen />;
}
