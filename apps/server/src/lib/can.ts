import { AUTHENTICATED, PUBLIC, type RouteDef } from '@iot/contract';
import type { AuthContext } from './caller.js';
import { isSuper } from './scope.js';

/**
 * The one rule for "does this caller hold one of these codes": the super administrator holds
 * every code, anyone else the codes of its role (`held`; none when not known). The route hook
 * (`plugins/auth.ts` through `PermissionService.hasAny`) and every row's `can` (`mayCall`) answer
 * through it, so a button the web shows is one the server accepts.
 */
export function holdsAny(
  ctx: Pick<AuthContext, 'role'>,
  held: readonly string[] | undefined,
  needed: readonly string[],
): boolean {
  return isSuper(ctx) || needed.some((code) => held?.includes(code) ?? false);
}

/**
 * Whether the caller's role holds what a declared route needs, on the codes read with the session.
 * A context built outside a request carries no codes and holds none: its `can` hides actions
 * rather than offer one the server refuses.
 */
export function mayCall(ctx: Pick<AuthContext, 'role' | 'codes'>, route: Pick<RouteDef, 'permission'>): boolean {
  const p = route.permission;
  if (p === PUBLIC || p === AUTHENTICATED) return true;
  return holdsAny(ctx, ctx.codes, typeof p === 'string' ? [p] : p);
}
