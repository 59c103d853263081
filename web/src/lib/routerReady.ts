/**
 * Resolves once a data router has run its first navigation's loaders: the app's first
 * render (main.tsx) and the server's first screen (ssr/render.tsx) both wait for it, so
 * the first render is the screen, not a loading placeholder.
 */
interface InitialisingRouter {
  state: { initialized: boolean };
  subscribe(listener: (state: { initialized: boolean }) => void): () => void;
}

export function routerReady(router: InitialisingRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}
