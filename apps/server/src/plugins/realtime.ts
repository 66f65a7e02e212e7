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
import type { AuthContext } from '../lib/caller.js';
import { API_PREFIX } from './auth.js';

interface Conn {
  socket: WebSocket;
  userId: number;
  sessionId: number;
  auth: AuthContext;
  /** Devices this socket follows (SUBSCRIBE_DEVICES), all visible to the user. */
  devices: Set<number>;
  /** Values waiting for the next push, per device (coalesced: newest wins). */
  pending: Map<number, { ts: string; values: Record<string, string | number | boolean> }>;
  /** When each device was last pushed to this socket. */
  lastPush: Map<number, number>;
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
  /** Signs a socket in with its session token (modules/auth's AuthService). */
  auth: { authenticate(token: string | undefined): Promise<AuthContext> };
  bus: EventBus;
  /** The subset of `ids` the user may see (device scoping lives in the device service). */
  visibleDevices: (auth: AuthContext, ids: number[]) => Promise<number[]>;
  /** Whether the user may read alarms at all (alarm pushes go only to those). Default: yes. */
  seesAlarms?: (auth: AuthContext) => Promise<boolean>;
  timing?: Partial<Record<keyof typeof LIVE_TIMING, number>>;
  limits?: Partial<LiveLimits>;
}

export const realtimePlugin = fp(async (app: FastifyInstance, opts: RealtimeOptions) => {
  const timing: Record<keyof typeof LIVE_TIMING, number> = { ...LIVE_TIMING, ...opts.timing };
  const limits: LiveLimits = { ...LIVE_LIMITS, ...opts.limits };
  /** Sockets not yet authenticated, per address: a flood from one address is refused at once. */
  const unauthByIp = new Map<string, number>();
  let unauthTotal = 0;
  const byUser = new Map<number, Set<Conn>>();
  const bySession = new Map<number, Set<Conn>>();
  const byDevice = new Map<number, Set<Conn>>();

  const follow = (c: Conn, ids: number[]) => {
    for (const id of c.devices) {
      byDevice.get(id)?.delete(c);
      if (byDevice.get(id)?.size === 0) byDevice.delete(id);
    }
    c.devices = new Set(ids);
    c.pending.clear();
    c.lastPush.clear();
    for (const id of ids) {
      if (!byDevice.has(id)) byDevice.set(id, new Set());
      byDevice.get(id)!.add(c);
    }
  };

  const add = (c: Conn) => {
    if (!byUser.has(c.userId)) byUser.set(c.userId, new Set());
    byUser.get(c.userId)!.add(c);
    if (!bySession.has(c.sessionId)) bySession.set(c.sessionId, new Set());
    bySession.get(c.sessionId)!.add(c);
  };
  const remove = (c: Conn) => {
    follow(c, []);
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
    // Values are coalesced per socket and device and pushed once a second (below).
    // A device not pushed within the last period is pushed at once; otherwise its values wait,
    // merged (newest wins), for the next tick: at most about one push per device per period.
    opts.bus.on('device.values', ({ deviceId, ts, values }) => {
      const now = Date.now();
      for (const c of byDevice.get(deviceId) ?? []) {
        const p = c.pending.get(deviceId);
        if (p) {
          Object.assign(p.values, values);
          if (ts > p.ts) p.ts = ts;
        } else if (now - (c.lastPush.get(deviceId) ?? 0) >= timing.devicePushMs) {
          c.lastPush.set(deviceId, now);
          send(c.socket, { type: LiveType.DEVICE_VALUES, deviceId, ts, values });
        } else {
          c.pending.set(deviceId, { ts, values: { ...values } });
        }
      }
    }),
    opts.bus.on('device.command', (c) => {
      for (const conn of byDevice.get(c.deviceId) ?? []) send(conn.socket, { type: LiveType.DEVICE_COMMAND, ...c });
    }),
    // Alarms go to every socket of each user who may see their devices (one visibility query per
    // connected user and change, not per socket).
    opts.bus.on('alarms.changed', ({ event, alarms }) => {
      void (async () => {
        const deviceIds = [...new Set(alarms.map((a) => a.deviceId))];
        for (const [userId, conns] of byUser) {
          const first = conns.values().next().value;
          if (!first) continue;
          if (opts.seesAlarms && !(await opts.seesAlarms(first.auth))) continue;
          const visible = new Set(await opts.visibleDevices(first.auth, deviceIds));
          const mine = alarms.filter((a) => visible.has(a.deviceId));
          if (mine.length > 0) realtime.publishToUser(userId, { type: LiveType.ALARMS, event, alarms: mine });
        }
      })().catch((err: unknown) => app.log.error({ err }, 'live: alarm delivery failed'));
    }),
    opts.bus.on('device.status', ({ deviceId, online, at }) => {
      for (const c of byDevice.get(deviceId) ?? []) send(c.socket, { type: LiveType.DEVICE_STATUS, deviceId, online, at });
    }),
  ];
  const pushTimer = setInterval(() => {
    for (const set of byUser.values()) {
      for (const c of set) {
        if (c.pending.size === 0) continue;
        const now = Date.now();
        for (const [deviceId, p] of c.pending) {
          if (now - (c.lastPush.get(deviceId) ?? 0) < timing.devicePushMs) continue;
          c.lastPush.set(deviceId, now);
          c.pending.delete(deviceId);
          send(c.socket, { type: LiveType.DEVICE_VALUES, deviceId, ts: p.ts, values: p.values });
        }
      }
    }
  }, Math.max(20, timing.devicePushMs / 4));
  pushTimer.unref();
  app.addHook('onClose', async () => {
    clearInterval(pushTimer);
    offs.forEach((off) => off());
  });

  app.get(
    `${API_PREFIX}/ws`,
    { websocket: true, config: { permission: PUBLIC } },
    (socket, req) => {
      const ip = req.ip;
      if ((unauthByIp.get(ip) ?? 0) >= limits.unauthenticatedPerAddress || unauthTotal >= limits.unauthenticatedTotal) {
        req.log.debug({ ip }, 'live: too many unauthenticated sockets');
        socket.close(4003, 'too many unauthenticated connections');
        return;
      }
      unauthByIp.set(ip, (unauthByIp.get(ip) ?? 0) + 1);
      unauthTotal++;
      let counted = true;
      /** The socket authenticated or closed: it no longer counts as pending. */
      const settle = () => {
        if (!counted) return;
        counted = false;
        unauthTotal--;
        const n = (unauthByIp.get(ip) ?? 1) - 1;
        if (n <= 0) unauthByIp.delete(ip);
        else unauthByIp.set(ip, n);
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
        if (msg.type === LiveType.SUBSCRIBE_DEVICES) {
          // Only after LOGIN, and only devices the user may see.
          if (!conn) return;
          const c = conn;
          const ids = [...new Set(msg.deviceIds)];
          const visible = ids.length > 0 ? await opts.visibleDevices(c.auth, ids) : [];
          if (conn !== c) return;
          follow(c, visible);
          send(socket, { type: LiveType.DEVICES_SUBSCRIBED, deviceIds: visible });
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
          conn = { socket, userId: auth.userId, sessionId: auth.sessionId, auth, devices: new Set(), pending: new Map(), lastPush: new Map() };
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
