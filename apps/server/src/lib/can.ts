import { AUTHENTICATED, PUBLIC, type RouteDef } from '@iot/contract';
import type { AuthContext } from './caller.js';
import { isSuper } from './scope.js';

/**
 * Whether the caller's role holds what a declared route needs: the route hook's own check
 * (`plugins/auth.ts`, `PermissionService.hasAny`) on the codes read with the session, so a row's
 * `can` says what that hook will answer. A context built outside a request carries no codes and
 * holds none: its `can` hides actions rather than offer one the server refuses.
 */
export function mayCall(ctx: Pick<AuthContext, 'role' | 'codes'>, route: Pick<RouteDef, 'permission'>): boolean {
  const p = route.permission;
  if (p === PUBLIC || p === AUTHENTICATED || isSuper(ctx)) return true;
  const needed: readonly string[] = typeof p === 'string' ? [p] : p;
  return needed.some((code) => ctx.codes?.includes(code) ?? false);
}
