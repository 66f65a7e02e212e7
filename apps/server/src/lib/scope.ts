import { SUPERADMIN } from '@iot/contract';
import type { AuthContext } from './caller.js';

export function isSuper(ctx: Pick<AuthContext, 'role'>): boolean {
  return ctx.role === SUPERADMIN;
}

/**
 * The subtree a caller may see (`/1/5/` covers itself and every descendant), or undefined for the
 * super administrator, who sees everything.
 */
export function scopeOf(ctx: Pick<AuthContext, 'role' | 'path'>): string | undefined {
  return isSuper(ctx) ? undefined : ctx.path;
}

/** Whether a user's path lies in the caller's subtree (the caller itself included). */
export function inScope(ctx: Pick<AuthContext, 'role' | 'path'>, path: string): boolean {
  const scope = scopeOf(ctx);
  return scope === undefined || path.startsWith(scope);
}

/**
 * The one owner rule for a device put in a project (created, imported, edited, moved in bulk,
 * moved out of a deleted project): it belongs to the project owner's line, so the tenant it left
 * can no longer change it or issue it a secret. Undefined (no project): the device keeps its
 * line; a new one takes its creator's.
 */
export function deviceOwnerPath(project: { ownerPath: string } | null | undefined): string | undefined {
  return project?.ownerPath;
}

/**
 * The one rule for changing a device or a SIM card: it is owned in the caller's subtree, or it
 * sits in a project owned there. A project only shared with the caller lets it see the row, not
 * change it. The services refuse by it (`manageable`) and the rows' `can` answers by it.
 */
export function managesRow(
  ctx: Pick<AuthContext, 'role' | 'path'>,
  row: { ownerPath: string; projectOwnerPath: string | null },
): boolean {
  return inScope(ctx, row.ownerPath) || (row.projectOwnerPath !== null && inScope(ctx, row.projectOwnerPath));
}
