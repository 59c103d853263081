import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { CardActionsContext, type CardActions } from '../components/CardActions';
import { PopupHost } from '../components/popup';
import { createAppRoutes } from './router';
import { ServicesContext, type Services } from '../lib/services';

/**
 * Save on every news card (D266), its code loaded when a card first shows it (after the
 * first paint), so the first screen's script does not grow. The reader feature's second
 * public entry, not its index: a dynamic import of the index loads every reader screen, and
 * a static one puts every module the index names into the entry (D415, D419).
 */
const CardSaveButton = lazy(() =>
  import('../features/reader/save').then((m) => ({
    default: m.CardSaveButton,
  })),
);
const cardActions: CardActions = (item) => (
  <Suspense fallback={null}>
    <CardSaveButton newsId={item.news_id} title={item.title} />
  </Suspense>
);

type RouterFactory = (routes: RouteObject[]) => ReturnType<typeof createBrowserRouter>;

export function App({
  services,
  createRouter = createBrowserRouter,
}: {
  services: Services;
  createRouter?: RouterFactory;
}) {
  const [router] = useState(() => createRouter(createAppRoutes(services)));
  // Tests and tools wait for this: from here on the page is the app, not the server's
  // first screen (D156).
  useEffect(() => document.documentElement.setAttribute('data-app', 'ready'), []);
  return (
    <ErrorBoundary>
      <ServicesContext.Provider value={services}>
        <QueryClientProvider client={services.queryClient}>
          <PopupHost>
            <CardActionsContext.Provider value={cardActions}>
              <RouterProvider router={router} />
            </CardActionsContext.Provider>
          </PopupHost>
        </QueryClientProvider>
      </ServicesContext.Provider>
    </ErrorBoundary>
  );
}
