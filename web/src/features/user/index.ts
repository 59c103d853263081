import { lazy } from 'react';

export * from './model';
export * from './config';
export { createSession, newDeviceId, type Session, type SessionDeps } from './session';
export const userQueryKey = ['user'] as const;
// The sign-in dialog and the account section live in features/account (they read the
// app's context, which reads this feature: keeping them here made an import circle).
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
