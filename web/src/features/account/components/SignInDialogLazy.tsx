import { lazy, Suspense, type ComponentProps } from 'react';
import { loadMessages } from '../../../i18n';

// Its messages are the account's part (D429), asked for with its code.
const Dialog = lazy(() =>
  Promise.all([import('./SignInDialog'), loadMessages('account')]).then(([module]) => ({
    default: module.SignInDialog,
  })),
);

/**
 * The sign-in dialog, its code loaded when it first opens (a guest's "Sign in", or
 * `?login=1`), not with every page (D415), and its messages with it (D429). Until it has arrived nothing shows, as before
 * the dialog renders.
 */
export function SignInDialog(props: ComponentProps<typeof Dialog>) {
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  );
}
