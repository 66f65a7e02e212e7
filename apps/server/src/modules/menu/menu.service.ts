import type { MenuNode } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { isSuper } from '../../lib/scope.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as repo from './menu.repo.js';

type MenuRow = Awaited<ReturnType<typeof repo.allMenus>>[number];

/** The menu tree as callers see it; whether they hold a permission is the permission module's. */
export class MenuService {
  constructor(private readonly db: Db) {}

  /**
   * The menu tree the caller may see: a node is kept when the role holds a permission of it or
   * of any descendant. The super administrator sees every menu.
   */
  async treeFor(auth: Pick<AuthContext, 'role' | 'roleId'>): Promise<MenuNode[]> {
    const tree = await this.tree();
    if (isSuper(auth)) return tree;
    const granted = await repo.menusWithRolePermission(this.db, auth.roleId);
    return prune(tree, granted);
  }

  /** Every menu, as a tree sorted by `sort`. */
  async tree(): Promise<MenuNode[]> {
    return buildTree(await repo.allMenus(this.db));
  }

  async exists(id: number): Promise<boolean> {
    return Boolean(await repo.findMenu(this.db, id));
  }
}

function buildTree(rows: MenuRow[]): MenuNode[] {
  const nodes = new Map<number, MenuNode>();
  for (const r of rows) {
    nodes.set(r.id, {
      id: r.id,
      parentId: r.parentId,
      name: r.name,
      nameEn: r.nameEn,
      nameEs: r.nameEs,
      nameJa: r.nameJa,
      jumpType: r.jumpType,
      menuUrl: r.menuUrl,
      menuType: r.menuType,
      sort: r.sort,
      icon: r.icon,
      identification: r.identification,
      isShow: r.isShow,
      children: [],
    });
  }
  const roots: MenuNode[] = [];
  // Rows arrive sorted by (sort, id), so children are appended in order.
  for (const r of rows) {
    const node = nodes.get(r.id)!;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

function prune(nodes: MenuNode[], granted: Set<number>): MenuNode[] {
  const out: MenuNode[] = [];
  for (const n of nodes) {
    const children = prune(n.children, granted);
    if (granted.has(n.id) || children.length > 0) out.push({ ...n, children });
  }
  return out;
}
