import { useTranslation } from 'react-i18next';
import { EmptyState, Screen } from '../../components/Screen';

/** SPEC §2.10 news detail. The article endpoint is a later issue. */
export default function Article() {
  const { t } = useTranslation();
  return (
    <Screen>
      <EmptyState title={t('Empty_Article')} hint={t('Empty_ArticleHint')} />
    </Screen>
  );
}
