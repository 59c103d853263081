import { useTranslation } from '../../i18n';
import { Link } from 'react-router';
import { Suspense, useCallback, useState } from 'react';
import {
  CityPickerDialog,
  closeCityPicker,
  isGuest,
  openCityPicker,
  readerCityLabel,
  useCityPickerOpen,
  useUser,
  type User,
} from '../../features/user';
import { SignInDialog } from '../../features/account';
import { localizePath, type Locale } from '../../lib/locale';
import { useRouteHandle } from '../../lib/routeHandle';
import { useServices } from '../../lib/services';
import { LocaleSwitcher } from './LocaleSwitcher';
import { Logo } from './Logo';

/** §3.3 cityShow of the user, else of the stored settings (D235). */
function useCityLabel(): string | null {
  const user = useUser();
  const { settings } = useServices();
  const label = readerCityLabel(user, {
    city: settings.get('city'),
    adminCode: settings.get('adminCode'),
  });
  return label || null;
}

/**
 * Who is reading: a guest gets a "Sign in" button that opens the dialog where they are (the
 * page stays put); a signed-in reader their photo (or initial) and name, linking to /user.
 * Nothing while the user is not known yet, as the server's first screen.
 */
function HeaderAccount({ user, locale }: { user: User | null; locale: Locale }) {
  const { t } = useTranslation();
  const [signingIn, setSigningIn] = useState(false);
  const closeSignIn = useCallback(() => setSigningIn(false), []);
  if (!user) return null;
  if (isGuest(user)) {
    return (
      <>
        <button
          type="button"
          className="site-header__sign-in"
          aria-haspopup="dialog"
          onClick={() => setSigningIn(true)}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path
              fill="currentColor"
              d="M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm0 2c-4.4 0-8 2.2-8 5v2h16v-2c0-2.8-3.6-5-8-5Z"
            />
          </svg>
          <span className="visually-hidden">{t('Header_SignIn')}</span>
        </button>
        {signingIn && <SignInDialog redirect={null} onClose={closeSignIn} />}
      </>
    );
  }
  const name = user.name || user.email || t('Header_Account');
  return (
    <Link className="site-header__account" to={localizePath(locale, '/user')}>
      {user.photo ? (
        <img className="site-header__photo" src={user.photo} alt="" width={32} height={32} />
      ) : (
        <span className="site-header__photo site-header__photo--initial" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      )}
      <span className="visually-hidden">{name}</span>
    </Link>
  );
}

export function Header() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const { api, session, settings } = useServices();
  const user = useUser();
  const city = useCityLabel();
  const pickerOpen = useCityPickerOpen();
  return (
    <header className="site-header">
      <Link className="brand" to={localizePath(locale, '/')}>
        <Logo />
        <span className="brand__name">{t('App_Name')}</span>
      </Link>
      <p className="site-header__city">
        <button
          type="button"
          className="site-header__city-button"
          aria-haspopup="dialog"
          onClick={openCityPicker}
        >
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <path
              fill="currentColor"
              d="M12 2a7 7 0 0 0-7 7c0 5.3 7 13 7 13s7-7.7 7-13a7 7 0 0 0-7-7Zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5Z"
            />
          </svg>
          <span className="visually-hidden">{t('Web_YourCity')}: </span>
          <span>{city ?? t('Web_CityUnknown')}</span>
          <span className="visually-hidden"> ({t('City_Change')})</span>
        </button>
      </p>
      {pickerOpen && (
        <Suspense fallback={null}>
          <CityPickerDialog
            onClose={closeCityPicker}
            api={api}
            session={session}
            settings={settings}
            user={user}
            locale={locale}
          />
        </Suspense>
      )}
      <LocaleSwitcher />
      {/* Always there and always one size: filling it moves nothing (D156, D252). */}
      <div className="site-header__account-slot">
        <HeaderAccount user={user} locale={locale} />
      </div>
    </header>
  );
}
