export {
  NotificationSettingsForm,
  NotificationsScreen,
  NotificationsToggle,
} from './components/Notifications';
export { lastReportedPermission, reportPermission } from './report';
export { SERVICE_WORKER_URL } from './push';
