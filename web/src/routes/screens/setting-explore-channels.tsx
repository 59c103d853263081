import { useTranslation } from 'react-i18next';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.18 explore channels. Its list endpoint is a later issue. */
export default function SettingExploreChannels() {
  const { t } = useTranslation();
  return <StoryListScreen emptyTitle={t('Empty_Channels')} emptyHint="" />;
}
