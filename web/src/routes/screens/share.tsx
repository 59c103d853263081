import { useTranslation } from 'react-i18next';
import { EmptyState, Screen } from '../../components/Screen';

/** SPEC §2.11 shared item. */
export default function Share() {
  const { t } = useTranslation();
  return (
    <Screen>
      <EmptyState title={t('Empty_Article')} hint={t('Empty_ArticleHint')} />
    </Screen>
  );
}
