import type { AuthContext } from './auth.service.js';

/** A session as a request last read it. */
export interface CachedSession {
  auth: AuthContext;
  /** When the session expires (ms), as read. */
  expiresAt: number;
  /** When its use was last written (ms). */
  lastUsedAt: number;
}

interface Entry extends CachedSession {
  /** When it was read (ms). */
  readAt: number;
}

/**
 * Signed-in requests' sessions, users and role codes kept in memory for a few seconds, so that a
 * request costs no query for them. It only ever says yes: a session it does not hold, or holds
 * past its time or its expiry, is read from the database, and refusals are never kept.
 *
 * What changes an answer reaches it at once: the `auth_changed` notifications of the database
 * (migration 0026: a session revoked or slid, any change to users, roles, permissions and role
 * grants, from any process or a psql session), this process's own console writes (`clear` before
 * the response leaves), and ended sessions (`forget`). The TTL bounds the rest: a notification
 * lost with its connection. While the listener is down (`live` false) nothing is served.
 *
 * A read that began before a change and ends after it must not be kept: `epoch()` before the
 * read, `put` with it after; any change in between moves the epoch and the put is dropped.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly bySession = new Map<number, string>();
  private epochs = 0;
  private live = false;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled() {
    return this.ttlMs > 0 && this.live;
  }

  /** The listener is listening (or not): either way, what was heard before no longer counts. */
  setLive(live: boolean) {
    this.live = live;
    this.clear();
  }

  epoch() {
    return this.epochs;
  }

  get(tokenHash: string, now = Date.now()): CachedSession | undefined {
    if (!this.enabled) return undefined;
    const e = this.entries.get(tokenHash);
    if (!e) return undefined;
    if (now - e.readAt >= this.ttlMs || e.expiresAt <= now) {
      this.drop(tokenHash, e.auth.sessionId);
      return undefined;
    }
    return e;
  }

  put(tokenHash: string, s: CachedSession, epoch: number, now = Date.now()) {
    if (!this.enabled || epoch !== this.epochs) return;
    if (this.entries.size >= this.maxEntries) {
      // The oldest read goes first (a Map iterates in insertion order).
      const [oldest] = this.entries;
      if (oldest) this.drop(oldest[0], oldest[1].auth.sessionId);
    }
    this.entries.set(tokenHash, { ...s, readAt: now });
    this.bySession.set(s.auth.sessionId, tokenHash);
  }

  /** These sessions are read again at their next request. */
  forget(sessionIds: Iterable<number>) {
    this.epochs++;
    for (const id of sessionIds) {
      const hash = this.bySession.get(id);
      if (hash) this.drop(hash, id);
    }
  }

  /** Every session is read again at its next request. */
  clear() {
    this.epochs++;
    this.entries.clear();
    this.bySession.clear();
  }

  /** An `auth_changed` payload: `s:<id>,<id>…` for sessions, anything else for all. */
  heard(payload: string) {
    if (payload.startsWith('s:')) {
      const ids = payload.slice(2).split(',').map(Number);
      if (ids.every(Number.isSafeInteger)) return this.forget(ids);
    }
    this.clear();
  }

  private drop(tokenHash: string, sessionId: number) {
    this.entries.delete(tokenHash);
    if (this.bySession.get(sessionId) === tokenHash) this.bySession.delete(sessionId);
  }
}
