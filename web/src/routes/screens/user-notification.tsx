import { useTranslation } from 'react-i18next';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.2 signed-in reader area. Its list endpoint is a later issue. */
export default function UserNotification() {
  const { t } = useTranslation();
  return <StoryListScreen emptyTitle={t('Empty_Notifications')} />;
}
