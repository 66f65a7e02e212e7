import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { installErrorReporting } from './lib/error-report';
import { i18nReady } from './lib/i18n';
import { localizeLibraryLabels } from './lib/library-labels';
import './styles.css';
import { AppRoutes } from './app/AppRoutes';
import { Providers } from './app/providers';

installErrorReporting();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The UI language's texts come first (one small chunk), so no page ever shows a bare key.
void i18nReady.finally(() => {
  localizeLibraryLabels();
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  );
});
