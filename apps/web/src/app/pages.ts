import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType>;

/** Shown for every menu page that no feature implements yet: an honest notice, no fake data. */
export const NotAvailablePage: Page = lazy(() => import('../features/errors/NotAvailable'));

/**
 * Full route path → page. Menu items load their page from here by parent and child path
 * (`/device` + `type` → `/device/type`); a path that is not listed shows NotAvailablePage.
 */
const PAGES: Record<string, Page> = {
  '/dashboard': lazy(() => import('../features/dashboard/DashboardPage')),
  '/profile': lazy(() => import('../features/profile/ProfilePage')),
  '/404': lazy(() => import('../features/errors/NotFound')),
  '/401': lazy(() => import('../features/errors/Unauthorized')),
  // Product modules of §2 that later issues build. Until then they share the notice page.
  '/device/type': lazy(() => import('../features/devicetypes/DeviceTypeListPage')),
  '/device/addtype': lazy(() => import('../features/devicetypes/AddTypePage')),
  '/device/edittype': lazy(() => import('../features/devicetypes/EditTypePage')),
  '/device/setparam': lazy(() => import('../features/devicetypes/ParamSettingsPage')),
  '/device/setalarm': lazy(() => import('../features/devicetypes/AlarmSettingsPage')),
  '/project/index': lazy(() => import('../features/projects/ProjectListPage')),
  '/project/details': lazy(() => import('./ProjectDetails')),
  '/project/info': lazy(() => import('./DeviceDetails')),
  '/device/list': lazy(() => import('../features/devices/DeviceListPage')),
  '/device/track': lazy(() => import('../features/devices/track/TrackPage')),
  '/project/userProjectList': lazy(() => import('../features/projects/ProjectUsersPage')),
  '/project/alarminfo': lazy(() => import('../features/alarms/AlarmInfoPage')),
  '/user/agent': lazy(() => import('../features/users/AgentUserPage')),
  '/upgrade/version': NotAvailablePage,
  '/upgrade/device': NotAvailablePage,
  '/upgrade/external': NotAvailablePage,
  '/card/index': lazy(() => import('../features/cards/CardListPage')),
  '/card/orderManagement': lazy(() => import('../features/cards/OrderListPage')),
  '/sys/menu': lazy(() => import('../features/menus/MenuPage')),
  '/sys/adminuser': lazy(() => import('../features/users/AdminUserPage')),
  '/sys/role': lazy(() => import('../features/roles/RolePage')),
  '/sys/permission': lazy(() => import('../features/permissions/PermissionPage')),
  '/sys/user': lazy(() => import('../features/users/SysUserPage')),
  '/sys/logs': lazy(() => import('../features/logs/OperationLogPage')),
  '/sys/devlogs': lazy(() => import('../features/logs/DeviceLogPage')),
};

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
