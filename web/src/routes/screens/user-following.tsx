import { useTranslation } from 'react-i18next';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.2 publishers the user follows (§4.7). Its list endpoint is a later issue. */
export default function UserFollowing() {
  const { t } = useTranslation();
  return (
    <StoryListScreen sectionTitle={t('Section_Publishers')} emptyTitle={t('Empty_Following')} />
  );
}
