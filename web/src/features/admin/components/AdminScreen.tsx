import { useState } from 'react';
import { useTranslation } from '../../../i18n';
import { Link, useLocation } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { Screen } from '../../../components/Screen';
import { isApiError } from '../../../lib/api';
import { localizePath } from '../../../lib/locale';
import { useFeeds, useUsage } from '../hooks';
import { DEFAULT_PRESET, lastDays } from '../range';
import type { UsageRange } from '../api';
import { FeedsSection } from './FeedsSection';
import { UsageSection } from './UsageSection';

const hasStatus = (status: number, ...errors: unknown[]) =>
  errors.some((error) => isApiError(error) && error.status === status);

/** 403: an account that is not an operator's; says how to become one. */
function NotAnOperator() {
  const { t } = useTranslation();
  return (
    <div className="admin-notice" role="alert">
      <p className="admin-notice__title">{t('Admin_ForbiddenTitle')}</p>
      <p>{t('Admin_Forbidden')}</p>
    </div>
  );
}

/** 401: the session ended (the route guard sends guests to sign in before this). */
function SignInAgain() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const location = useLocation();
  const back = location.pathname + location.search;
  const to = `${localizePath(locale, '/')}?login=1&redirect=${encodeURIComponent(back)}`;
  return (
    <div className="admin-notice" role="alert">
      <p className="admin-notice__title">{t('Admin_SignInTitle')}</p>
      <p>{t('Admin_SignIn')}</p>
      <Link className="button button--primary" to={to}>
        {t('Admin_SignInAction')}
      </Link>
    </div>
  );
}

/**
 * D340, D343 /admin: the operator's usage (D335) and feeds (D342). Who is an operator is the
 * API's answer: a 403 on either call shows the one notice instead of two failed sections.
 */
export function AdminScreen() {
  const [range, setRange] = useState<UsageRange>(() => lastDays(DEFAULT_PRESET));
  const usage = useUsage(range);
  const feeds = useFeeds();

  if (hasStatus(403, usage.error, feeds.error)) {
    return (
      <Screen>
        <NotAnOperator />
      </Screen>
    );
  }
  if (hasStatus(401, usage.error, feeds.error)) {
    return (
      <Screen>
        <SignInAgain />
      </Screen>
    );
  }
  return (
    <Screen>
      <div className="admin">
        <UsageSection range={range} onRange={setRange} usage={usage} />
        <FeedsSection feeds={feeds} />
      </div>
    </Screen>
  );
}
