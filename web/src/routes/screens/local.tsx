import { useTranslation } from 'react-i18next';
import { useUser } from '../../app/context';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.3 local news for the user's city. */
export default function Local() {
  const { t } = useTranslation();
  const user = useUser();
  return (
    <StoryListScreen
      sectionTitle={user?.city ? t('Section_Local', { city: user.city }) : t('Section_LocalNoCity')}
    />
  );
}
