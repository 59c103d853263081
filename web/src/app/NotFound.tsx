import { useTranslation } from '../i18n';
import { useLocation } from 'react-router';
import { ErrorScreen } from '../components/ErrorScreen';
import { usePageHead } from '../components/Screen';

/** SPEC §2.22 / §8.1: an unmatched path shows 'Page not found: {path}' (status 404). */
export function NotFound() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const message = t('Web_PageNotFound', { path: pathname });
  usePageHead(message);
  return <ErrorScreen status={404} message={message} />;
}
