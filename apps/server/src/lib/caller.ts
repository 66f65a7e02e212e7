import type { AuditAction } from '@iot/contract';

// Who calls: the types the HTTP layer (plugins/) and the services share. modules/auth builds an
// AuthContext from a session, plugins/audit an Actor from a request; both are named here so that
// neither plugins/ nor lib/ import modules/.

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** What an authenticated request knows about its caller. */
export interface AuthContext {
  sessionId: number;
  userId: number;
  username: string;
  type: number;
  /** Materialised ancestry of the user, for subtree scoping. */
  path: string;
  roleId: number;
  role: string;
  language: string;
  /**
   * The role's permission codes, read with the session in the same query (a sub-user's request
   * then checks its route's code without a second query). Absent where a context is built
   * otherwise: the permission check reads them itself.
   */
  codes?: readonly string[];
}

/** Who does what, from where: passed by routes to services, which log inside their transaction. */
export interface Actor extends AuthContext {
  action: AuditAction;
  ip: string;
  userAgent: string;
  /** Set when the service has written its log row. */
  markWritten(): void;
}
