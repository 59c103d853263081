/** Signing in and the reader's account (issue 17): the sign-in dialog and the account section. */
export { SignInDialog } from './components/SignInDialogLazy';
export { AccountSection } from './components/AccountSection';
