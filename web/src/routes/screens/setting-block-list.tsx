import { useTranslation } from 'react-i18next';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.16 blocked publishers. Its list endpoint is a later issue. */
export default function SettingBlockList() {
  const { t } = useTranslation();
  return (
    <StoryListScreen
      sectionTitle={t('Section_Publishers')}
      emptyTitle={t('Empty_BlockList')}
      emptyHint=""
    />
  );
}
