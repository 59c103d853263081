export * from './model';
export * from './config';
export { createSession, newDeviceId, type Session, type SessionDeps } from './session';
export const userQueryKey = ['user'] as const;
export { SignInDialog } from './components/SignInDialog';
