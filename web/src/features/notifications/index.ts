export {
  NotificationSettingsDetails,
  NotificationSettingsForm,
  NotificationsScreen,
  NotificationsToggle,
  PublisherPushSwitch,
} from './components/Notifications';
export { SERVICE_WORKER_URL } from './push';
