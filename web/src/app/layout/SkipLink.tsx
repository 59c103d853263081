import { useTranslation } from '../../i18n';

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href="#main">
      {t('Web_SkipToContent')}
    </a>
  );
}
