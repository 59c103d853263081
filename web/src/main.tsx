import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { readPayload } from './app/payload';
import { createServices } from './app/services';
import { loadLocale } from './i18n';
import { splitLocalePath } from './lib/locale';
import './styles/global.css';

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
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App services={services} />
    </StrictMode>,
  );
  services.start();
}

void boot();
