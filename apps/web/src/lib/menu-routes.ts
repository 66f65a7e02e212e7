import { menuUrlProblem } from '@iot/contract/plain';
import type { Language, MenuNode } from '@iot/contract';

/** One client route built from the menu tree (§2). */
export interface MenuRoute {
  /** Full path: parent menuUrl + '/' + child menuUrl, e.g. `/device/type`. */
  path: string;
  title: string;
  /** redirect: parent route → first child; page: loads a page; empty: menu type 1 without children. */
  kind: 'redirect' | 'page' | 'empty';
  redirect?: string;
  /** is_show 0: the route exists but the sidebar does not list it. */
  hidden: boolean;
  icon: string;
  identification: string;
  /** Paths of the ancestors, outermost first (for the breadcrumb). */
  parents: string[];
}

export interface SidebarItem {
  /** A route path, or the URL of an external link. */
  key: string;
  title: string;
  icon: string;
  external: boolean;
  children?: SidebarItem[];
}

/** The menu title in a language: zh uses `name`; others their column, falling back to name. */
export function menuTitle(node: MenuNode, lang: Language): string {
  if (lang === 'zh') return node.name;
  const localized = lang === 'en' ? node.nameEn : lang === 'es' ? node.nameEs : node.nameJa;
  return localized?.trim() || node.nameEn?.trim() || node.name;
}

export function joinPath(parent: string, segment: string): string {
  const parts = [parent, segment]
    .flatMap((p) => p.split('/'))
    .map((p) => p.trim())
    .filter(Boolean);
  return `/${parts.join('/')}`;
}

const isExternal = (node: MenuNode) => node.jumpType === 2;

function sorted(nodes: readonly MenuNode[]): MenuNode[] {
  return [...nodes].sort((a, b) => a.sort - b.sort);
}

/** Flattens the tree into routes; external links (jump type 2) are sidebar entries only. */
export function buildMenuRoutes(menus: readonly MenuNode[], lang: Language): MenuRoute[] {
  const routes: MenuRoute[] = [];
  const walk = (nodes: readonly MenuNode[], parentPath: string, parents: string[], hidden: boolean) => {
    for (const node of sorted(nodes)) {
      if (isExternal(node) || !node.menuUrl.trim()) continue;
      const path = joinPath(parentPath, node.menuUrl);
      const inSite = sorted(node.children ?? []).filter((c) => !isExternal(c) && c.menuUrl.trim());
      const first = inSite[0];
      const route: MenuRoute = {
        path,
        title: menuTitle(node, lang),
        kind: first ? 'redirect' : node.menuType === 1 ? 'empty' : 'page',
        hidden: hidden || node.isShow === 0,
        icon: node.icon,
        identification: node.identification,
        parents,
      };
      if (first) route.redirect = joinPath(path, first.menuUrl);
      routes.push(route);
      walk(node.children ?? [], path, [...parents, path], route.hidden);
    }
  };
  walk(menus, '', [], false);
  return routes;
}

/** The visible part of the tree as sidebar entries (is_show 0 left out, external links kept). */
export function buildSidebar(menus: readonly MenuNode[], lang: Language, parentPath = ''): SidebarItem[] {
  const items: SidebarItem[] = [];
  for (const node of sorted(menus)) {
    if (node.isShow === 0) continue;
    const title = menuTitle(node, lang);
    if (isExternal(node)) {
      // Only http(s) links ever become anchors, whatever an old row of the database holds.
      if (menuUrlProblem(2, node.menuUrl)) continue;
      items.push({ key: node.menuUrl, title, icon: node.icon, external: true });
      continue;
    }
    if (!node.menuUrl.trim()) continue;
    const path = joinPath(parentPath, node.menuUrl);
    const children = buildSidebar(node.children ?? [], lang, path);
    items.push({
      key: path,
      title,
      icon: node.icon,
      external: false,
      ...(children.length > 0 ? { children } : {}),
    });
  }
  return items;
}
