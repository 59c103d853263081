import { loadMessages, useTranslation } from '../../i18n';
import { Link, useLocation, useNavigate } from 'react-router';
import { useRouteHandle } from '../../lib/routeHandle';
import { useServices } from '../../lib/services';
import { Screen, Section } from '../../components/Screen';
import { usePopup } from '../../components/popup';
import { AccountSection } from '../../features/account';
import { SETTINGS_LINKS } from '../../features/reader';
import { isGuest, useUser } from '../../features/user';
import { isApiError } from '../../lib/api';
import { localizePath } from '../../lib/locale';
import { formatVisit } from '../../lib/settings';

/** The account’s and sign-in’s messages are a part of their own (D429). */
export const ready = loadMessages('account');

const CHILDREN = [
  { path: '/user/read', key: 'Title_user_read' },
  { path: '/user/reaction', key: 'Title_user_reaction' },
  { path: '/user/favorites', key: 'Title_user_favorites' },
  { path: '/user/following', key: 'Title_user_following' },
  { path: '/user/notification', key: 'Title_user_notification' },
] as const;

/** SPEC §2.2 user centre (signed-in only). */
export default function UserCenter() {
  const { t } = useTranslation();
  const user = useUser();
  const services = useServices();
  const { locale } = useRouteHandle();
  const navigate = useNavigate();
  const popup = usePopup();
  const location = useLocation();
  const lastVisit = formatVisit(services.previousVisit);

  async function logout() {
    try {
      await services.session.logout();
      navigate(localizePath(locale, '/'));
    } catch (error) {
      popup.show({
        text: isApiError(error) ? error.message : t('Web_UnknownError'),
        kind: 'error',
      });
    }
  }

  function deleted() {
    navigate(localizePath(locale, '/'));
    popup.show({ text: t('Account_Deleted'), kind: 'success' });
  }

  return (
    <Screen>
      <section className="profile" aria-label={t('Nav_Account')}>
        {user?.photo ? (
          <img className="profile__photo" src={user.photo} alt="" width={64} height={64} />
        ) : (
          <span className="profile__photo profile__photo--initial" aria-hidden="true">
            {(user?.name || t('User_Guest')).slice(0, 1).toUpperCase()}
          </span>
        )}
        <div>
          <p className="profile__name">
            {user?.name ? t('User_Greeting', { name: user.name }) : t('User_Guest')}
          </p>
          {user?.email && <p className="profile__email">{user.email}</p>}
          {lastVisit && <p className="profile__visit">{t('Web_LastVisit', { date: lastVisit })}</p>}
        </div>
        <button type="button" className="button" onClick={() => void logout()}>
          {t('User_Logout')}
        </button>
      </section>
      <Section title={t('User_Sections')}>
        <ul className="link-list">
          {CHILDREN.map((child) => (
            <li key={child.path}>
              <Link to={localizePath(locale, child.path)}>{t(child.key)}</Link>
            </li>
          ))}
        </ul>
      </Section>
      <Section title={t('Settings_Nav')}>
        <ul className="link-list">
          {SETTINGS_LINKS.map((link) => (
            <li key={link.path}>
              <Link to={localizePath(locale, link.path)}>{t(link.key)}</Link>
            </li>
          ))}
        </ul>
      </Section>
      {/* Only for an account: after logout or delete this page shows a guest until it leaves. */}
      {!isGuest(user) && (
        <AccountSection returnTo={location.pathname + location.search} onDeleted={deleted} />
      )}
    </Screen>
  );
}
