import { useTranslation } from 'react-i18next';
import { StoryListScreen } from '../../components/Screen';

/** SPEC §2.19 demo page. */
export default function DemosDlink() {
  const { t } = useTranslation();
  return (
    <StoryListScreen>
      <p>{t('Demo_Text')}</p>
    </StoryListScreen>
  );
}
