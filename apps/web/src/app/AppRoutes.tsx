import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import AuthRedirect from './AuthRedirect';
import { PageSpin } from '../components/PageSpin';
import { isKnownPage, Layout, LoginPage, NotAvailablePage, pageFor } from './pages';
import RedirectBack from './RedirectBack';
import { HOME_PATH, useRouteTable, type AppRoute } from './route-table';
import { RouteGuard } from './RouteGuard';

/** A camera's live video, full screen in its own tab (hls.js loads with it, not with the shell). */
const VideoPlayPage = lazy(() => import('../features/devices/video/VideoPlayPage'));

function elementFor(route: AppRoute) {
  if (route.kind === 'redirect' && route.redirect) return <Navigate to={route.redirect} replace />;
  const Page = route.kind === 'empty' ? NotAvailablePage : pageFor(route.path);
  return <Page />;
}

/** A product page the user's menus do not grant is a permission problem (/401); others are /404. */
function Unmatched() {
  const { pathname } = useLocation();
  return <Navigate to={isKnownPage(pathname) ? '/401' : '/404'} replace />;
}

/** §2's hidden /project/devicelist became the sidebar's device list; old links keep working. */
function LegacyDeviceList() {
  const { search } = useLocation();
  return <Navigate to={`/device/list${search}`} replace />;
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
          {/* Outside the lazily loaded layout: a redirect inside it is not rendered on the first load. */}
          <Route path="/" element={<Navigate to={HOME_PATH} replace />} />
          <Route path="/video/play" element={<VideoPlayPage />} />
          <Route element={<Layout table={table} />}>
            <Route path="/redirect/*" element={<RedirectBack />} />
            <Route path="/project/devicelist" element={<LegacyDeviceList />} />
            {table.routes.map((route) => (
              <Route key={route.path} path={route.path} element={elementFor(route)} />
            ))}
          </Route>
          <Route path="*" element={<Unmatched />} />
        </Routes>
      </Suspense>
    </RouteGuard>
  );
}
