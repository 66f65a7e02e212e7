import type { MenuNode } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { SUPERADMIN } from '../../lib/scope.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as repo from './menu.repo.js';

type MenuRow = Awaited<ReturnType<typeof repo.allMenus>>[number];

export class MenuService {
  constructor(private readonly db: Db) {}

  /** Permission codes the caller holds; the super administrator holds every code. */
  async codesFor(auth: Pick<AuthContext, 'role' | 'roleId'>): Promise<string[]> {
    return auth.role === SUPERADMIN ? repo.allCodes(this.db) : repo.roleCodes(this.db, auth.roleId);
  }

  /** Whether the caller holds a permission code. */
  has(auth: Pick<AuthContext, 'role' | 'roleId'>, code: string): Promise<boolean> {
    return this.hasAny(auth, [code]);
  }

  /** Whether the caller holds at least one of the codes. */
  async hasAny(auth: Pick<AuthContext, 'role' | 'roleId'>, codes: readonly string[]): Promise<boolean> {
    if (auth.role === SUPERADMIN) return true;
    const held = await repo.roleCodes(this.db, auth.roleId);
    return codes.some((c) => held.includes(c));
  }

  /**
   * The menu tree the caller may see: a node is kept when the role holds a permission of it or
   * of any descendant. The super administrator sees every menu.
   */
  async treeFor(auth: Pick<AuthContext, 'role' | 'roleId'>): Promise<MenuNode[]> {
    const rows = await repo.allMenus(this.db);
    const tree = buildTree(rows);
    if (auth.role === SUPERADMIN) return tree;
    const granted = await repo.menusWithRolePermission(this.db, auth.roleId);
    return prune(tree, granted);
  }
}

export function buildTree(rows: MenuRow[]): MenuNode[] {
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
