import { useTranslation } from 'react-i18next';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.17 followed tags. Its list endpoint is a later issue. */
export default function SettingFollowingTags() {
  const { t } = useTranslation();
  return <StoryListScreen emptyTitle={t('Empty_Tags')} emptyHint="" />;
}
