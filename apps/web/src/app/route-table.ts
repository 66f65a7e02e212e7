import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Language } from '@iot/contract';
import { currentLanguage, isLanguage } from '../lib/i18n';
import { OWNER_PAGE } from './pages';
import { buildMenuRoutes, buildSidebar, type MenuRoute, type SidebarItem } from '../lib/menu-routes';
import { useSession } from '../lib/session';

export interface AppRoute extends MenuRoute {
  /** Pinned tab that cannot be closed. */
  affix?: boolean;
  /** The sidebar entry to highlight: the page itself, or the page a hidden page belongs to. */
  activeMenu: string;
}

export interface RouteTable {
  routes: AppRoute[];
  byPath: Map<string, AppRoute>;
  sidebar: SidebarItem[];
  /** Paths of pinned tabs. */
  affix: string[];
}

export const HOME_PATH = '/dashboard';

function constantRoutes(t: TFunction): AppRoute[] {
  const base = { kind: 'page' as const, identification: '', parents: [] };
  return [
    { ...base, path: HOME_PATH, title: t('route:dashboard'), hidden: false, icon: 'dashboard', affix: true, activeMenu: HOME_PATH },
    { ...base, path: '/profile', title: t('route:profile'), hidden: true, icon: 'user', activeMenu: '/profile' },
    { ...base, path: '/404', title: t('route:notFound'), hidden: true, icon: '', activeMenu: '/404' },
    { ...base, path: '/401', title: t('route:unauthorized'), hidden: true, icon: '', activeMenu: '/401' },
  ];
}

/**
 * A hidden page opened from a visible one (OWNER_PAGE) sits under it: its breadcrumb runs through
 * the owner and the sidebar highlights the owner, when the user has the owner page.
 */
function withOwners(menuRoutes: MenuRoute[]): AppRoute[] {
  const byPath = new Map(menuRoutes.map((r) => [r.path, r]));
  return menuRoutes.map((route) => {
    const owner = route.hidden ? byPath.get(OWNER_PAGE[route.path] ?? '') : undefined;
    return owner
      ? { ...route, parents: [...owner.parents, owner.path], activeMenu: owner.path }
      : { ...route, activeMenu: route.path };
  });
}

/** Constant routes plus the runtime menu routes, titled in the current language (§2). */
export function useRouteTable(): RouteTable {
  const { t, i18n } = useTranslation();
  const { menus } = useSession();
  // Depends on i18n.language so titles follow a language switch.
  const lang: Language = isLanguage(i18n.language) ? i18n.language : currentLanguage();
  return useMemo(() => {
    const fixed = constantRoutes(t);
    const fixedPaths = new Set(fixed.map((r) => r.path));
    const routes: AppRoute[] = [
      ...fixed,
      ...withOwners(buildMenuRoutes(menus, lang).filter((r) => !fixedPaths.has(r.path))),
    ];
    const home = fixed[0] as AppRoute;
    const sidebar: SidebarItem[] = [
      { key: home.path, title: home.title, icon: home.icon, external: false },
      ...buildSidebar(menus, lang).filter((item) => item.key !== HOME_PATH),
    ];
    return {
      routes,
      byPath: new Map(routes.map((r) => [r.path, r])),
      sidebar,
      affix: routes.filter((r) => r.affix).map((r) => r.path),
    };
  }, [menus, lang, t]);
}
