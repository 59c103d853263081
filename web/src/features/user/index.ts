import { lazy } from 'react';
import type { AppConfig } from './config';
import type { User } from './model';
import type { Session } from './session';

export * from './model';
export * from './config';
export { createSession, newDeviceId, type Session, type SessionDeps } from './session';
export { useUser, userQueryKey } from './useUser';
// The sign-in dialog and the account section live in features/account (they once read the
// app's context, which read this feature: keeping them here made an import circle).
export {
  accountQueryKey,
  sessionsQueryKey,
  MY_DATA_FILE_NAME,
  downloadJson,
  exportMyData,
  fetchAccount,
  fetchSessions,
  providerOfIdentity,
  revokeOtherSessions,
  revokeSession,
  type AccountInfo,
  type ActiveSession,
  type LinkedIdentity,
} from './account';
export {
  closeSignInWindow,
  isOwnPath,
  isSigningIn,
  signInUrl,
  startSignIn,
  PROVIDER_NAMES,
  SIGN_IN_PROVIDERS,
  type SignInMessage,
  type SignInOutcome,
  type SignInProvider,
} from './signInWindow';
export {
  normalizeGeoCity,
  toCityInfo,
  productCodeFor,
  searchCities,
  defaultCities,
  nearestCity,
  cityDetail,
  currentPosition,
  type GeoCity,
} from './geo';
export { openCityPicker, closeCityPicker, useCityPickerOpen } from './pickerState';
/** The city picker dialog, loaded on first use (D24: nothing extra on the first load). */
export const CityPickerDialog = lazy(() => import('./components/CityPicker'));

/** What this feature adds to the app's services (lib/services.ts). */
declare module '../../lib/services' {
  interface Services {
    session: Session;
    /** The start-up flow (§7.17); resolves with the user, or undefined if the server failed. */
    ready: Promise<User | undefined>;
    /** The user once start-up is done, as the data layer holds it now. */
    currentUser: () => Promise<User | undefined>;
    getConfig: () => Promise<AppConfig>;
  }
}
