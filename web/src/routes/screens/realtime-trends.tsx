import { useTranslation } from 'react-i18next';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.8 realtime trends. */
export default function RealtimeTrends() {
  const { t } = useTranslation();
  return (
    <StoryListScreen
      sectionTitle={t('Nav_Trends')}
      emptyTitle={t('Empty_Trends')}
      emptyHint={t('Empty_TrendsHint')}
    />
  );
}
