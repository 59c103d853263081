import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { PopupHost } from '../features/popup';
import { ServicesContext } from './context';
import { createAppRoutes } from './router';
import type { Services } from './services';

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
            <RouterProvider router={router} />
          </PopupHost>
        </QueryClientProvider>
      </ServicesContext.Provider>
    </ErrorBoundary>
  );
}
