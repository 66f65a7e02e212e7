import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import {
  LIVE_TIMING,
  LiveType,
  PUBLIC,
  liveClientMessageSchema,
  type LiveServerMessage,
} from '@iot/contract';
import type { EventBus } from '../lib/events.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import { API_PREFIX } from './auth.js';

interface Conn {
  socket: WebSocket;
  userId: number;
  sessionId: number;
}

/** Typed, user-scoped delivery to live sockets. Services emit events; only this sends. */
export interface Realtime {
  publishToUser(userId: number, msg: LiveServerMessage): number;
  publishToUsers(userIds: Iterable<number>, msg: LiveServerMessage): number;
  broadcast(msg: LiveServerMessage): number;
  /** Number of authenticated sockets (for health and tests). */
  connections(): number;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export interface LiveLimits {
  /** Sockets one address may hold open before they authenticate. */
  unauthenticatedPerAddress: number;
  /** Unauthenticated sockets over all addresses. */
  unauthenticatedTotal: number;
}
export const LIVE_LIMITS: LiveLimits = { unauthenticatedPerAddress: 20, unauthenticatedTotal: 1000 };

export interface RealtimeOptions {
  auth: AuthService;
  bus: EventBus;
  timing?: Partial<Record<keyof typeof LIVE_TIMING, number>>;
  limits?: Partial<LiveLimits>;
}

export const realtimePlugin = fp(async (app: FastifyInstance, opts: RealtimeOptions) => {
  const timing: Record<keyof typeof LIVE_TIMING, number> = { ...LIVE_TIMING, ...opts.timing };
  const limits: LiveLimits = { ...LIVE_LIMITS, ...opts.limits };
  /** Sockets not yet authenticated, per address: a flood from one address is refused at once. */
  const pending = new Map<string, number>();
  let pendingTotal = 0;
  const byUser = new Map<number, Set<Conn>>();
  const bySession = new Map<number, Set<Conn>>();

  const add = (c: Conn) => {
    if (!byUser.has(c.userId)) byUser.set(c.userId, new Set());
    byUser.get(c.userId)!.add(c);
    if (!bySession.has(c.sessionId)) bySession.set(c.sessionId, new Set());
    bySession.get(c.sessionId)!.add(c);
  };
  const remove = (c: Conn) => {
    byUser.get(c.userId)?.delete(c);
    if (byUser.get(c.userId)?.size === 0) byUser.delete(c.userId);
    bySession.get(c.sessionId)?.delete(c);
    if (bySession.get(c.sessionId)?.size === 0) bySession.delete(c.sessionId);
  };
  const send = (socket: WebSocket, msg: LiveServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
  };
  const deliver = (conns: Iterable<Conn>, msg: LiveServerMessage) => {
    let n = 0;
    for (const c of conns) {
      send(c.socket, msg);
      n++;
    }
    return n;
  };

  const realtime: Realtime = {
    publishToUser: (userId, msg) => deliver(byUser.get(userId) ?? [], msg),
    publishToUsers: (userIds, msg) => {
      let n = 0;
      for (const id of userIds) n += realtime.publishToUser(id, msg);
      return n;
    },
    broadcast: (msg) => {
      let n = 0;
      for (const set of byUser.values()) n += deliver(set, msg);
      return n;
    },
    connections: () => {
      let n = 0;
      for (const set of byUser.values()) n += set.size;
      return n;
    },
  };
  app.decorate('realtime', realtime);

  const offs = [
    opts.bus.on('session.ended', ({ sessionIds, code, reason }) => {
      for (const id of sessionIds) {
        for (const c of [...(bySession.get(id) ?? [])]) {
          send(c.socket, { type: LiveType.SESSION_ENDED, code, reason, timestamp: Date.now() });
          c.socket.close(4001, 'session ended');
          remove(c);
        }
      }
    }),
    opts.bus.on('menus.changed', ({ userIds }) => {
      const msg = { type: LiveType.MENUS_CHANGED, timestamp: Date.now() } as const;
      if (userIds) realtime.publishToUsers(userIds, msg);
      else realtime.broadcast(msg);
    }),
  ];
  app.addHook('onClose', async () => offs.forEach((off) => off()));

  app.get(
    `${API_PREFIX}/ws`,
    { websocket: true, config: { permission: PUBLIC } },
    (socket, req) => {
      const ip = req.ip;
      if ((pending.get(ip) ?? 0) >= limits.unauthenticatedPerAddress || pendingTotal >= limits.unauthenticatedTotal) {
        req.log.debug({ ip }, 'live: too many unauthenticated sockets');
        socket.close(4003, 'too many unauthenticated connections');
        return;
      }
      pending.set(ip, (pending.get(ip) ?? 0) + 1);
      pendingTotal++;
      let counted = true;
      /** The socket authenticated or closed: it no longer counts as pending. */
      const settle = () => {
        if (!counted) return;
        counted = false;
        pendingTotal--;
        const n = (pending.get(ip) ?? 1) - 1;
        if (n <= 0) pending.delete(ip);
        else pending.set(ip, n);
      };
      let conn: Conn | undefined;
      let authenticating = false;
      let lastSeen = Date.now();
      const opened = Date.now();
      const watchdog = setInterval(
        () => {
          const now = Date.now();
          if (!conn && now - opened > timing.loginTimeoutMs) socket.close(4000, 'login timeout');
          else if (now - lastSeen > timing.idleTimeoutMs) socket.close(4002, 'idle');
        },
        Math.min(1000, timing.loginTimeoutMs / 2),
      );
      socket.on('close', () => {
        clearInterval(watchdog);
        settle();
        if (conn) remove(conn);
      });
      socket.on('message', async (raw) => {
        lastSeen = Date.now();
        let parsed;
        try {
          parsed = liveClientMessageSchema.safeParse(JSON.parse(String(raw)));
        } catch {
          parsed = undefined;
        }
        if (!parsed?.success) {
          req.log.debug('live: ignored a malformed message');
          return;
        }
        const msg = parsed.data;
        if (msg.type === LiveType.HEARTBEAT) {
          // Nothing is answered before authentication.
          if (conn) send(socket, { type: LiveType.HEARTBEAT_ACK, timestamp: Date.now() });
          return;
        }
        // LOGIN: authenticate by the token (one at a time); anything wrong closes the socket.
        if (authenticating) return;
        authenticating = true;
        try {
          const auth = await opts.auth.authenticate(msg.token);
          if (auth.userId !== msg.userId) throw new Error('user mismatch');
          if (socket.readyState !== socket.OPEN) return;
          if (conn) remove(conn);
          conn = { socket, userId: auth.userId, sessionId: auth.sessionId };
          add(conn);
          settle();
          send(socket, { type: LiveType.LOGIN_OK, userId: auth.userId, timestamp: Date.now() });
        } catch {
          socket.close(4001, 'authentication failed');
        } finally {
          authenticating = false;
        }
      });
    },
  );
});
