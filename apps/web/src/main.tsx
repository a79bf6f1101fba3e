import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { router } from './app/router';
import { getTradeListQueryOptions } from './api/get-trade-list';
import { startCompanyCheck } from './lib/company';
import { IS_DESKTOP } from './lib/device';
import { initI18n } from './lib/i18n';
import { queryClient } from './lib/query-client';
import { registerServiceWorker } from './lib/service-worker';
import './index.css';

const root = createRoot(document.getElementById('root')!);
void startCompanyCheck();
registerServiceWorker();

// The market screens (/, /trade, /product and the desktop terminal) all start from trade_list:
// ask for it now, while the language and the route's chunk load, instead of after the first render.
if (/^\/(trade|product)?\/?$/.test(window.location.pathname)) void queryClient.prefetchQuery(getTradeListQueryOptions());
// The desktop frame is its own chunk (phones never need it): fetched alongside the start bundle.
if (IS_DESKTOP) void import('./app/layouts/desktop-layout');
// /trade's page and chart chunks, fetched alongside the start bundle rather than after it.
if (window.location.pathname.startsWith('/trade')) void import('./app/trade-route');

// Render once the current language is loaded, so the first paint is already translated. As a
// transition, React renders the first screen in slices of a few milliseconds instead of one long
// task, so a slow phone stays responsive meanwhile (the start shell from index.html is on screen).
void initI18n().finally(() => {
  startTransition(() => {
    root.render(
      <StrictMode>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    );
  });
});
