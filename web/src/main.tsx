import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/App';
import { createAppRoutes } from './app/router';
import { readPayload } from './lib/payload';
import { registerServiceWorker } from './features/offline';
import { createServices } from './app/services';
import { loadLocale } from './i18n';
import { splitLocalePath } from './lib/locale';
import './styles/global.css';
import { routerReady } from './lib/routerReady';

async function boot() {
  const payload = readPayload();
  const connection = (navigator as Navigator & { connection?: { effectiveType?: string } })
    .connection;
  const services = createServices({
    payload,
    initialUrl: new URL(window.location.href),
    browserLanguages: navigator.languages ?? [navigator.language],
    connection,
    signWord: import.meta.env.VITE_SIGN_WORD,
  });
  // The first screen's messages are loaded before the first render: no flash of keys.
  await loadLocale(payload?.locale ?? splitLocalePath(window.location.pathname).locale);
  // Start-up first: a signed-in page's loader waits for the user it finds.
  services.start();
  // Reading offline (D390): after the page has loaded, never before the first screen.
  registerServiceWorker();
  // The server's first screen stays until the app's is ready to replace it (D156): the
  // router first runs the route's loader and loads its screen, so the first render is
  // the screen, not the boot placeholder.
  const router = createBrowserRouter(createAppRoutes(services));
  await routerReady(router);
  const root = createRoot(document.getElementById('root')!);
  // A transition: React renders the first screen in slices and yields between them, so
  // a tap or a scroll on the server's screen is answered while the app takes over.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App services={services} createRouter={() => router} />
      </StrictMode>,
    ),
  );
}

void boot();
