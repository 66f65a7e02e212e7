import { lazy, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { feedbackMessage } from '../lib/feedback';
import { ApiError, ClientCode, describeError } from '../lib/http';
import { loginRedirect, safeRedirect } from '../lib/redirect';
import { PageSpin } from '../components/PageSpin';
import { preloadPage, prefetchPageData } from './pages';
import { loadSession, refreshMenusIfStale, resetSession, retrySession, useSession } from '../lib/session';

/** The "server unreachable" screen (antd's Result, with its illustrations: not on the login path). */
const Unreachable = lazy(() => import('./Unreachable'));

/** Paths a visitor without a session may open (§2). */
const WHITELIST = ['/login', '/auth-redirect'];

/**
 * §2 route guard. No token: only the whitelist, else login with a redirect. With a token: /login
 * goes home, and the first navigation loads user info and menus; a failure resets the session.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { token, status } = useSession();
  const queryClient = useQueryClient();
  const fullPath = location.pathname + location.search + location.hash;

  useEffect(() => {
    if (!token || status !== 'idle') return;
    const { pathname, search } = location;
    // The session's requests first; the page's code is fetched while they are answered.
    const loading = loadSession((user) => prefetchPageData(queryClient, user, pathname, search));
    void preloadPage(pathname);
    loading.catch((err: unknown) => {
      // Unreachable server: keep the session and offer to try again (see below).
      if (err instanceof ApiError && err.code === ClientCode.NETWORK) return;
      resetSession();
      const text =
        err instanceof ApiError ? describeError(err) : err instanceof Error ? err.message : '';
      feedbackMessage().error(text || t('errors:hasError'));
    });
  }, [token, status, t, location, queryClient]);

  // Role and menu changes reach the sidebar at the next navigation even if the live push was missed.
  useEffect(() => {
    if (status === 'ready') refreshMenusIfStale();
  }, [location.pathname, status]);

  if (!token) {
    return WHITELIST.includes(location.pathname) ? children : <Navigate to={loginRedirect(fullPath)} replace />;
  }
  if (location.pathname === '/login') {
    // Signed in: leave the login page, for the page it was asked to return to if any.
    const back = new URLSearchParams(location.search).get('redirect');
    return <Navigate to={safeRedirect(back)} replace />;
  }
  if (status === 'unreachable') return <Unreachable onRetry={retrySession} />;
  if (status !== 'ready') return <PageSpin />;
  return children;
}
