import { useTranslation } from 'react-i18next';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.9 today in history. */
export default function TodayInHistory() {
  const { t } = useTranslation();
  const today = new Intl.DateTimeFormat(undefined, { month: 'long', day: 'numeric' }).format(
    new Date(),
  );
  return (
    <StoryListScreen
      sectionTitle={today}
      emptyTitle={t('Empty_History')}
      emptyHint={t('Empty_HistoryHint')}
    />
  );
}
