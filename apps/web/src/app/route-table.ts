import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Language } from '@iot/contract';
import { currentLanguage, isLanguage } from '../lib/i18n';
import { buildMenuRoutes, buildSidebar, type MenuRoute, type SidebarItem } from './menu-routes';
import { useSession } from './session';

export interface AppRoute extends MenuRoute {
  /** Pinned tab that cannot be closed. */
  affix?: boolean;
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
    { ...base, path: HOME_PATH, title: t('route:dashboard'), hidden: false, icon: 'dashboard', affix: true },
    { ...base, path: '/profile', title: t('route:profile'), hidden: true, icon: 'user' },
    { ...base, path: '/404', title: t('route:notFound'), hidden: true, icon: '' },
    { ...base, path: '/401', title: t('route:unauthorized'), hidden: true, icon: '' },
  ];
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
      ...buildMenuRoutes(menus, lang).filter((r) => !fixedPaths.has(r.path)),
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
