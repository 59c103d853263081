import { NotificationsScreen } from '../../features/notifications';

/** §2.2 /user/notification: notifications on or off, their budget, and what was sent (§7.6). */
export default function UserNotification() {
  return <NotificationsScreen />;
}
