import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import AuthRedirect from './AuthRedirect';
import { Layout, PageSpin } from './layout/Layout';
import { NotAvailablePage, pageFor } from './pages';
import RedirectBack from './RedirectBack';
import { HOME_PATH, useRouteTable, type AppRoute } from './route-table';
import { RouteGuard } from './RouteGuard';

const LoginPage = lazy(() => import('../features/auth/LoginPage'));

function elementFor(route: AppRoute) {
  if (route.kind === 'redirect' && route.redirect) return <Navigate to={route.redirect} replace />;
  const Page = route.kind === 'empty' ? NotAvailablePage : pageFor(route.path);
  return <Page />;
}

/** Constant routes plus the routes built from the user's menu tree (§2). */
export function AppRoutes() {
  const table = useRouteTable();
  return (
    <RouteGuard>
      <Suspense fallback={<PageSpin />}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/auth-redirect" element={<AuthRedirect />} />
          <Route element={<Layout table={table} />}>
            <Route index element={<Navigate to={HOME_PATH} replace />} />
            <Route path="/redirect/*" element={<RedirectBack />} />
            {table.routes.map((route) => (
              <Route key={route.path} path={route.path} element={elementFor(route)} />
            ))}
          </Route>
          <Route path="*" element={<Navigate to="/404" replace />} />
        </Routes>
      </Suspense>
    </RouteGuard>
  );
}
