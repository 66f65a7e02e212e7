import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { installErrorReporting } from './lib/error-report';
import { i18nReady } from './lib/i18n';
import { localizeLibraryLabels } from './lib/library-labels';
import './styles.css';
import { AppRoutes } from './app/AppRoutes';
import { preloadPage } from './app/pages';
import { Providers } from './app/providers';

installErrorReporting();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The UI language's texts come first (one small chunk), so no page ever shows a bare key. The
// login form's code (a small chunk) comes beside them, so it renders at once instead of behind a
// suspended fallback (pages.ts), unless it takes longer than a spinner is worth hiding. A
// signed-in page is not waited for: its session requests leave at the first render (RouteGuard),
// and its code comes while they are answered.
const waitFor = location.pathname === '/login' ? Promise.race([preloadPage('/login'), new Promise((r) => setTimeout(r, 400))]) : undefined;
void Promise.all([i18nReady, waitFor]).finally(() => {
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
