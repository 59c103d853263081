import { lazy, Suspense, type ComponentProps } from 'react';

const Dialog = lazy(() =>
  import('./SignInDialog').then((module) => ({ default: module.SignInDialog })),
);

/**
 * The sign-in dialog, its code loaded when it first opens (a guest's "Sign in", or
 * `?login=1`), not with every page (D415). Until it has arrived nothing shows, as before
 * the dialog renders.
 */
export function SignInDialog(props: ComponentProps<typeof Dialog>) {
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  );
}
