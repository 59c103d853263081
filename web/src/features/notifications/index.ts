export {
  NotificationSettingsDetails,
  NotificationSettingsForm,
  NotificationsScreen,
  NotificationsToggle,
  PublisherPushSwitch,
} from './components/Notifications';
export { lastReportedPermission, reportPermission } from './report';
export { SERVICE_WORKER_URL } from './push';
