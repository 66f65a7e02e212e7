import { createElement, lazy, useState, type ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { UserInfo } from '@iot/contract';

type Page = ComponentType;

const loaders = new Map<unknown, () => Promise<unknown>>();

/**
 * A lazily loaded component whose code `preloadPage` can fetch before it renders. Rendered once
 * its code is there, it is the component itself, not a `lazy()` that suspends: React shows a
 * suspended boundary's content no sooner than 300 ms after its fallback (its throttle against
 * flicker), and every first screen paid that wait with its code already loaded (idle main thread
 * from 0.2 to 0.5 s in a profile of the login page). Each mount keeps what it started with, so a
 * page that did suspend is never swapped for another element type under its state.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same bound as React's lazy()
function page<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): T {
  let loaded: T | undefined;
  let loading: Promise<{ default: T }> | undefined;
  const loadOnce = () =>
    (loading ??= load().then(
      (m) => ((loaded = m.default), m),
      (err: unknown) => {
        loading = undefined; // a failed chunk (a deploy, the network) is asked again next time
        throw err;
      },
    ));
  const Lazy = lazy(loadOnce);
  function Page(props: object) {
    const [mounted] = useState(() => ({ component: (loaded ?? Lazy) as ComponentType<object> }));
    return createElement(mounted.component, props);
  }
  loaders.set(Page, loadOnce);
  return Page as unknown as T;
}

/** The signed-in frame (sidebar, navbar, tags, alarm bell): not part of the login page's download. */
export const Layout = page(() => import('./layout/Layout').then((m) => ({ default: m.Layout })));

/** Shown for every menu page that no feature implements yet: an honest notice, no fake data. */
export const NotAvailablePage: Page = page(() => import('../features/errors/NotAvailable'));

/**
 * Full route path → page. Menu items load their page from here by parent and child path
 * (`/device` + `type` → `/device/type`); a path that is not listed shows NotAvailablePage.
 */
const PAGES: Record<string, Page> = {
  '/dashboard': page(() => import('./Dashboard')),
  '/profile': page(() => import('../features/profile/ProfilePage')),
  '/404': page(() => import('../features/errors/NotFound')),
  '/401': page(() => import('../features/errors/Unauthorized')),
  // Product modules of §2 that later issues build. Until then they share the notice page.
  '/device/type': page(() => import('../features/devicetypes/DeviceTypeListPage')),
  '/device/addtype': page(() => import('../features/devicetypes/AddTypePage')),
  '/device/edittype': page(() => import('../features/devicetypes/EditTypePage')),
  '/device/setparam': page(() => import('../features/devicetypes/ParamSettingsPage')),
  '/device/setalarm': page(() => import('../features/devicetypes/AlarmSettingsPage')),
  '/project/index': page(() => import('../features/projects/ProjectListPage')),
  '/project/details': page(() => import('./ProjectDetails')),
  '/project/map': page(() => import('./FleetMap')),
  '/project/info': page(() => import('./DeviceDetails')),
  '/device/list': page(() => import('../features/devices/DeviceListPage')),
  '/device/track': page(() => import('../features/devices/track/TrackPage')),
  '/project/userProjectList': page(() => import('../features/projects/ProjectUsersPage')),
  '/project/alarminfo': page(() => import('../features/alarms/AlarmInfoPage')),
  '/user/agent': page(() => import('../features/users/AgentUserPage')),
  '/upgrade/version': page(() => import('../features/upgrade/VersionListPage')),
  '/upgrade/device': page(() => import('../features/upgrade/CampaignListPage')),
  '/upgrade/external': page(() => import('../features/upgrade/external/ExternalPage')),
  '/card/index': page(() => import('../features/cards/CardListPage')),
  '/card/orderManagement': page(() => import('../features/cards/OrderListPage')),
  '/store/index': page(() => import('../features/stores/StoreListPage')),
  '/rent/index': page(() => import('../features/rentals/RentalListPage')),
  '/rent/overview': page(() => import('../features/rentals/OverviewPage')),
  '/sys/menu': page(() => import('../features/menus/MenuPage')),
  '/sys/adminuser': page(() => import('../features/users/AdminUserPage')),
  '/sys/role': page(() => import('../features/roles/RolePage')),
  '/sys/permission': page(() => import('../features/permissions/PermissionPage')),
  '/sys/user': page(() => import('../features/users/SysUserPage')),
  '/sys/logs': page(() => import('../features/logs/OperationLogPage')),
  '/sys/clienterrors': page(() => import('../features/logs/ClientErrorPage')),
  '/sys/site': page(() => import('../features/site/SiteSettingsPage')),
  '/sys/devlogs': page(() => import('../features/logs/DeviceLogPage')),
};

/** The login form (its own chunk: the signed-in frame is not part of its download). */
export const LoginPage = page(() => import('../features/auth/LoginPage'));

/** The code of the pages a path shows: the login form, or the frame and the path's page. */
function pagesOf(path: string): unknown[] {
  return path === '/login' ? [LoginPage] : [Layout, PAGES[path]];
}

/**
 * Fetches the frame's and a page's code while the session (user info, menus) loads, instead of
 * after it: the first screen after a reload waits for one round of requests, not three. Resolves
 * when that code is there (never rejects: a failed chunk fails where it renders).
 */
export function preloadPage(path: string): Promise<void> {
  const loads = pagesOf(path).map((p) => loaders.get(p)?.().catch(() => undefined));
  return Promise.all(loads).then(() => undefined);
}

/**
 * Asks for a page's first data once the session's user is known, before the frame renders (the
 * frame and the page's code may still be loading then). Only the home dashboard, the first screen
 * after every sign-in, does so. Resolves once the requests are sent, not answered.
 */
export async function prefetchPageData(qc: QueryClient, user: UserInfo, path: string, search: string): Promise<void> {
  if (path !== '/dashboard' || !user.permissions.includes('home:view')) return;
  const m = await import('../features/dashboard/api');
  m.prefetchDashboard(qc, user.dashboardStyle, !search);
}

export function pageFor(path: string): Page {
  return PAGES[path] ?? NotAvailablePage;
}

/** A page of the product (a user without its permission is told so: /401, not /404). */
export function isKnownPage(path: string): boolean {
  return path in PAGES;
}

/** Whether a feature implements the page (the sidebar marks the others as not available yet). */
export function isBuilt(path: string): boolean {
  const page = PAGES[path];
  return page !== undefined && page !== NotAvailablePage;
}

/**
 * Hidden pages (is_show 0) belong to the visible page they are opened from: the breadcrumb shows
 * that page as their parent and the sidebar highlights it.
 */
export const OWNER_PAGE: Readonly<Record<string, string>> = {
  '/device/addtype': '/device/type',
  '/device/edittype': '/device/type',
  '/device/setparam': '/device/type',
  '/device/setalarm': '/device/type',
  '/project/details': '/project/index',
  '/project/userProjectList': '/project/index',
  '/project/info': '/device/list',
  '/card/orderManagement': '/card/index',
};
