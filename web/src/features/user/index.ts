import { lazy } from 'react';

export * from './model';
export * from './config';
export { createSession, newDeviceId, type Session, type SessionDeps } from './session';
export const userQueryKey = ['user'] as const;
export { SignInDialog } from './components/SignInDialog';
export { AccountSection } from './components/AccountSection';
export {
  accountQueryKey,
  sessionsQueryKey,
  MY_DATA_FILE_NAME,
  type AccountInfo,
  type ActiveSession,
  type LinkedIdentity,
} from './account';
export {
  closeSignInWindow,
  isSigningIn,
  signInUrl,
  PROVIDER_NAMES,
  SIGN_IN_PROVIDERS,
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
