import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { router } from './app/router';
import { startCompanyCheck } from './lib/company';
import { initI18n } from './lib/i18n';
import './index.css';

const root = createRoot(document.getElementById('root')!);
void startCompanyCheck();

// Render once the current language is loaded, so the first paint is already translated.
void initI18n().finally(() => {
  root.render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} future={{ v7_startTransition: true }} />
      </AppProviders>
    </StrictMode>,
  );
});
