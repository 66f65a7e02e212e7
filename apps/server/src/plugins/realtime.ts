import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import {
  LIVE_TIMING,
  LiveType,
  MAX_LIVE_DEVICES,
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
  /** The socket's session token: its rights are read again with it when they change. */
  token: string;
  auth: AuthContext;
  /** Devices this socket follows (SUBSCRIBE_DEVICES), all visible to the user. */
  devices: Set<number>;
  /** Values waiting for the next push, per device (coalesced: newest wins). */
  pending: Map<number, { ts: string; values: Record<string, string | number | boolean> }>;
  /** When each device was last pushed to this socket. */
  lastPush: Map<number, number>;
  /**
   * Followed devices held back until a re-check says the user still sees them, with the scope
   * epoch that held them: nothing of theirs goes out from the moment access changed.
   */
  held: Map<number, number>;
  /** Status and command messages of held devices, in order, sent if the device stays visible. */
  heldMessages: LiveServerMessage[];
  /** The newest follow request not yet looked up (latest wins). */
  wanted: number[] | undefined;
  /**
   * The newest follow message as it came, validated only if it is the one looked up: a flood
   * costs a JSON.parse per message, not a schema check of up to 1,000 ids each.
   */
  wantedRaw: unknown;
  /** A follow request's visibility query is running (at most one per socket). */
  querying: boolean;
  /** Follow requests' token bucket. */
  tokens: number;
  tokensAt: number;
  /** Waits for the next token when the bucket is empty. */
  retry: ReturnType<typeof setTimeout> | undefined;
  closed: boolean;
}

/** Typed, user-scoped delivery to live sockets. Services emit events; only this sends. */
export interface Realtime {
  publishToUser(userId: number, msg: LiveServerMessage): number;
  publishToUsers(userIds: Iterable<number>, msg: LiveServerMessage): number;
  broadcast(msg: LiveServerMessage): number;
  /** Number of authenticated sockets (for health and tests). */
  connections(): number;
  /** Visibility queries run so far: for follow requests, and for re-checks after a scope change (tests, bench). */
  queries(): { follow: number; recheck: number };
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
  /** Authenticated sockets per user (tabs, windows); a further LOGIN is closed with 4004. */
  socketsPerUser: number;
  /** Devices one socket follows; a longer request is cut to its first ones. */
  devicesPerSocket: number;
  /** Follow requests one socket may have looked up at once after a pause (token bucket size). */
  followBurst: number;
  /** Follow requests looked up per second and socket past the burst; the rest wait, newest winning. */
  followPerSecond: number;
}
export const LIVE_LIMITS: LiveLimits = {
  unauthenticatedPerAddress: 20,
  unauthenticatedTotal: 1000,
  socketsPerUser: 20,
  devicesPerSocket: MAX_LIVE_DEVICES,
  followBurst: 5,
  followPerSecond: 2,
};

export interface RealtimeOptions {
  /**
   * Signs a socket in with its session token (modules/auth's AuthService); `reread` reads the
   * session again past any cache when the user's rights changed (default: `authenticate`).
   */
  auth: { authenticate(token: string | undefined): Promise<AuthContext>; reread?(token: string): Promise<AuthContext> };
  bus: EventBus;
  /** The subset of `ids` the user may see (device scoping lives in the device service). */
  visibleDevices: (auth: AuthContext, ids: number[]) => Promise<number[]>;
  /** Whether the user may read alarms at all (alarm pushes go only to those). Default: yes. */
  seesAlarms?: (auth: AuthContext) => Promise<boolean>;
  /**
   * HOME_CHANGED: whether the user may read the home dashboard, and which of `ids` it counts (the
   * dashboard's scoping, without the device list's permission). Without it no 170 is sent.
   */
  home?: { sees: (auth: AuthContext) => Promise<boolean>; visibleDevices: (auth: AuthContext, ids: number[]) => Promise<number[]> };
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
    c.held.clear();
    c.heldMessages = [];
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
    c.closed = true;
    c.wanted = undefined;
    c.wantedRaw = undefined;
    if (c.retry) clearTimeout(c.retry);
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


  /** Status and command messages of a followed device: held back while the device is being re-checked. */
  const sendFollowed = (c: Conn, deviceId: number, msg: LiveServerMessage) => {
    if (!c.held.has(deviceId)) return send(c.socket, msg);
    // Bounded: a re-check takes one query; a device flooding meanwhile keeps its newest messages.
    if (c.heldMessages.length >= 1000) c.heldMessages.shift();
    c.heldMessages.push(msg);
  };

  const queries = { follow: 0, recheck: 0 };
  /** Moves on every scope change: a lookup that began before one is not trusted. */
  let scopeEpoch = 0;

  /**
   * Looks up a socket's newest follow request: one query at a time per socket, paced by its token
   * bucket; requests arriving meanwhile replace the waiting one, so a flood costs a few queries and
   * the socket ends up following its last request.
   */
  const lookUp = (c: Conn) => {
    if (c.closed || c.querying || c.retry) return;
    if (c.wantedRaw !== undefined) {
      const parsed = liveClientMessageSchema.safeParse(c.wantedRaw);
      c.wantedRaw = undefined;
      if (parsed.success && parsed.data.type === LiveType.SUBSCRIBE_DEVICES) {
        c.wanted = [...new Set(parsed.data.deviceIds)].slice(0, limits.devicesPerSocket);
      } else app.log.debug('live: ignored a malformed follow request');
    }
    if (!c.wanted) return;
    const ids = c.wanted;
    if (ids.length > 0) {
      const now = Date.now();
      c.tokens = Math.min(limits.followBurst, c.tokens + ((now - c.tokensAt) / 1000) * limits.followPerSecond);
      c.tokensAt = now;
      if (c.tokens < 1) {
        c.retry = setTimeout(() => {
          c.retry = undefined;
          lookUp(c);
        }, Math.ceil(((1 - c.tokens) / limits.followPerSecond) * 1000));
        return;
      }
      c.tokens -= 1;
    }
    c.wanted = undefined;
    c.querying = true;
    const epoch = scopeEpoch;
    void (async () => {
      let visible: number[] | undefined;
      try {
        if (ids.length > 0) queries.follow++;
        visible = ids.length > 0 ? await opts.visibleDevices(c.auth, ids) : [];
      } catch (err) {
        app.log.error({ err }, 'live: follow lookup failed');
      } finally {
        c.querying = false;
      }
      if (c.closed) return;
      // A newer request wins; a scope change during the lookup makes it look again.
      if (!c.wanted && c.wantedRaw === undefined && visible && epoch !== scopeEpoch) c.wanted = ids;
      if (c.wanted || c.wantedRaw !== undefined) return lookUp(c);
      if (!visible) return;
      follow(c, visible);
      send(c.socket, { type: LiveType.DEVICES_SUBSCRIBED, deviceIds: visible });
    })();
  };

  /** Users whose sockets are re-checked at the next tick: read their rights again, and which devices. */
  const due = new Map<number, { reread: boolean; devices: Set<number> | 'all' }>();
  let recheckTimer: ReturnType<typeof setImmediate> | undefined;

  /**
   * Access changed (committed): the devices concerned stop going out at once (held), and one
   * re-check per connected user runs at the next tick, however many changes came in this one.
   */
  const scopeChanged = (userIds: number[] | undefined, deviceIds: number[] | undefined) => {
    const epoch = ++scopeEpoch;
    const mark = (userId: number, devices: number[] | 'all', reread: boolean) => {
      const conns = byUser.get(userId);
      if (!conns) return;
      const d = due.get(userId) ?? { reread: false, devices: new Set<number>() };
      d.reread ||= reread;
      if (devices === 'all') d.devices = 'all';
      else if (d.devices !== 'all') for (const id of devices) d.devices.add(id);
      due.set(userId, d);
      for (const c of conns) {
        for (const id of devices === 'all' ? c.devices : devices) if (c.devices.has(id)) c.held.set(id, epoch);
      }
    };
    if (userIds) for (const u of userIds) mark(u, deviceIds ?? 'all', true);
    else if (deviceIds) {
      for (const id of deviceIds) for (const c of byDevice.get(id) ?? []) mark(c.userId, [id], false);
    } else for (const u of byUser.keys()) mark(u, 'all', true);
    if (due.size > 0 && !recheckTimer) recheckTimer = setImmediate(() => void recheck());
  };

  /** The user's rights read again by one of its sessions; a socket whose session no longer holds is closed. */
  const reread = async (conns: Set<Conn>): Promise<AuthContext | undefined> => {
    for (const c of [...conns]) {
      try {
        const auth = await (opts.auth.reread ? opts.auth.reread(c.token) : opts.auth.authenticate(c.token));
        for (const other of conns) other.auth = { ...auth, sessionId: other.sessionId };
        return auth;
      } catch {
        c.socket.close(4001, 'session ended');
        remove(c);
      }
    }
    return undefined;
  };

  const recheck = async () => {
    recheckTimer = undefined;
    const work = [...due];
    due.clear();
    // One user after another: a change concerning everyone costs one query per connected user,
    // not a burst of them.
    for (const [userId, d] of work) {
      try {
        await recheckUser(userId, d);
      } catch (err) {
        app.log.error({ err, userId }, 'live: re-check failed; retrying');
        // Its devices stay held; the next round tries again.
        const again = due.get(userId);
        due.set(userId, { reread: d.reread || Boolean(again?.reread), devices: d.devices === 'all' || again?.devices === 'all' ? 'all' : new Set([...d.devices, ...(again?.devices ?? [])]) });
        setTimeout(() => {
          if (due.size > 0 && !recheckTimer) recheckTimer = setImmediate(() => void recheck());
        }, 1000).unref();
      }
    }
  };

  const recheckUser = async (userId: number, d: { reread: boolean; devices: Set<number> | 'all' }) => {
    const conns = byUser.get(userId);
    if (!conns || conns.size === 0) return;
    const epoch = scopeEpoch;
    const auth = d.reread ? await reread(conns) : conns.values().next().value?.auth;
    if (!auth || conns.size === 0) return;
    const asked = new Set<number>();
    for (const c of conns) for (const id of c.devices) if (d.devices === 'all' || d.devices.has(id)) asked.add(id);
    let visible = new Set<number>();
    if (asked.size > 0) {
      queries.recheck++;
      visible = new Set(await opts.visibleDevices(auth, [...asked]));
    }
    for (const c of conns) {
      const lost = [...c.devices].filter((id) => asked.has(id) && !visible.has(id));
      if (lost.length > 0) {
        for (const id of lost) {
          c.devices.delete(id);
          c.pending.delete(id);
          c.lastPush.delete(id);
          c.held.delete(id);
          byDevice.get(id)?.delete(c);
          if (byDevice.get(id)?.size === 0) byDevice.delete(id);
        }
        send(c.socket, { type: LiveType.DEVICES_REVOKED, deviceIds: lost });
      }
      // Held since before this look: released; held by a later change: its own re-check decides.
      for (const [id, at] of c.held) if (at <= epoch && asked.has(id)) c.held.delete(id);
      const keep: LiveServerMessage[] = [];
      for (const m of c.heldMessages) {
        const id = 'deviceId' in m ? m.deviceId : undefined;
        if (id === undefined || !c.devices.has(id)) continue;
        if (c.held.has(id)) keep.push(m);
        else send(c.socket, m);
      }
      c.heldMessages = keep;
    }
  };

  /**
   * HOME_CHANGED (170): devices whose online state or alarms changed since the last round. A round
   * runs at once when the first change comes after a quiet period, then at most once per
   * `homePushMs`; it asks, once per connected user holding the home permission, which of the
   * changed devices the user sees (one visibility query per user and round, however many events),
   * and tells those who see any: at once, or when a period has passed since its last 170.
   */
  const homeChanged = new Set<number>();
  let homeTimer: ReturnType<typeof setTimeout> | undefined;
  let homeRunning = false;
  let homeLast = 0;
  const homeSchedule = () => {
    if (homeTimer || homeRunning || homeChanged.size === 0) return;
    homeTimer = setTimeout(() => void homeRound(), Math.max(0, homeLast + timing.homePushMs - Date.now()));
    homeTimer.unref?.();
  };
  const home = opts.home;
  const homeMark = (deviceIds: Iterable<number>) => {
    if (!home || byUser.size === 0) return;
    for (const id of deviceIds) homeChanged.add(id);
    homeSchedule();
  };
  /** When each user was last sent 170, and the sends put off to keep them a period apart. */
  const homeSent = new Map<number, number>();
  const homeOwed = new Map<number, ReturnType<typeof setTimeout>>();
  const homeNotify = (userId: number) => {
    if (homeOwed.has(userId)) return;
    const wait = (homeSent.get(userId) ?? 0) + timing.homePushMs - Date.now();
    const go = () => {
      homeOwed.delete(userId);
      if (!byUser.has(userId)) return homeSent.delete(userId);
      homeSent.set(userId, Date.now());
      realtime.publishToUser(userId, { type: LiveType.HOME_CHANGED, timestamp: Date.now() });
    };
    if (wait <= 0) return go();
    const timer = setTimeout(go, wait);
    timer.unref?.();
    homeOwed.set(userId, timer);
  };
  const homeRound = async () => {
    homeTimer = undefined;
    homeRunning = true;
    homeLast = Date.now();
    const ids = [...homeChanged];
    homeChanged.clear();
    try {
      for (const [userId, conns] of [...byUser]) {
        const first = conns.values().next().value;
        if (!first) continue;
        try {
          if (!home || !(await home.sees(first.auth))) continue;
          if ((await home.visibleDevices(first.auth, ids)).length === 0) continue;
          homeNotify(userId);
        } catch (err) {
          app.log.error({ err, userId }, 'live: dashboard change delivery failed');
        }
      }
    } finally {
      homeRunning = false;
      homeSchedule();
    }
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
    queries: () => ({ ...queries }),
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
      // Permissions changed: the sockets' rights are read again and their devices re-checked.
      scopeChanged(userIds, undefined);
    }),
    // Values are coalesced per socket and device and pushed once a second (below).
    // A device not pushed within the last period is pushed at once; otherwise its values wait,
    // merged (newest wins), for the next tick: at most about one push per device per period.
    // A held device's values wait in `pending` like coalesced ones, until its re-check.
    opts.bus.on('device.values', ({ deviceId, ts, values }) => {
      const now = Date.now();
      for (const c of byDevice.get(deviceId) ?? []) {
        const p = c.pending.get(deviceId);
        if (p) {
          Object.assign(p.values, values);
          if (ts > p.ts) p.ts = ts;
        } else if (!c.held.has(deviceId) && now - (c.lastPush.get(deviceId) ?? 0) >= timing.devicePushMs) {
          c.lastPush.set(deviceId, now);
          send(c.socket, { type: LiveType.DEVICE_VALUES, deviceId, ts, values });
        } else {
          c.pending.set(deviceId, { ts, values: { ...values } });
        }
      }
    }),
    opts.bus.on('device.command', (c) => {
      for (const conn of byDevice.get(c.deviceId) ?? []) sendFollowed(conn, c.deviceId, { type: LiveType.DEVICE_COMMAND, ...c });
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
      homeMark(alarms.map((a) => a.deviceId));
    }),
    opts.bus.on('device.status', ({ deviceId, online, at }) => {
      for (const c of byDevice.get(deviceId) ?? []) sendFollowed(c, deviceId, { type: LiveType.DEVICE_STATUS, deviceId, online, at });
      homeMark([deviceId]);
    }),
    opts.bus.on('scope.changed', ({ userIds, deviceIds }) => scopeChanged(userIds, deviceIds)),
  ];
  const pushTimer = setInterval(() => {
    for (const set of byUser.values()) {
      for (const c of set) {
        if (c.pending.size === 0) continue;
        const now = Date.now();
        for (const [deviceId, p] of c.pending) {
          if (c.held.has(deviceId) || now - (c.lastPush.get(deviceId) ?? 0) < timing.devicePushMs) continue;
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
    if (recheckTimer) clearImmediate(recheckTimer);
    if (homeTimer) clearTimeout(homeTimer);
    for (const timer of homeOwed.values()) clearTimeout(timer);
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
        let value: unknown;
        try {
          value = JSON.parse(String(raw));
        } catch {
          value = undefined;
        }
        if ((value as { type?: unknown } | null)?.type === LiveType.SUBSCRIBE_DEVICES) {
          // Only after LOGIN, and only devices the user may see, at most devicesPerSocket of them.
          if (!conn) return;
          conn.wantedRaw = value;
          lookUp(conn);
          return;
        }
        const parsed = liveClientMessageSchema.safeParse(value);
        if (!parsed.success) {
          req.log.debug('live: ignored a malformed message');
          return;
        }
        const msg = parsed.data;
        if (msg.type === LiveType.HEARTBEAT) {
          // Nothing is answered before authentication.
          if (conn) send(socket, { type: LiveType.HEARTBEAT_ACK, timestamp: Date.now() });
          return;
        }
        if (msg.type !== LiveType.LOGIN) return;
        // LOGIN: authenticate by the token (one at a time); anything wrong closes the socket.
        if (authenticating) return;
        authenticating = true;
        try {
          const auth = await opts.auth.authenticate(msg.token);
          if (auth.userId !== msg.userId) throw new Error('user mismatch');
          if (socket.readyState !== socket.OPEN) return;
          if (conn) remove(conn);
          conn = undefined;
          if ((byUser.get(auth.userId)?.size ?? 0) >= limits.socketsPerUser) {
            req.log.debug({ userId: auth.userId }, 'live: too many sockets for one user');
            socket.close(4004, 'too many connections');
            return;
          }
          conn = {
            socket,
            userId: auth.userId,
            sessionId: auth.sessionId,
            token: msg.token,
            auth,
            devices: new Set(),
            pending: new Map(),
            lastPush: new Map(),
            held: new Map(),
            heldMessages: [],
            wanted: undefined,
            wantedRaw: undefined,
            querying: false,
            tokens: limits.followBurst,
            tokensAt: Date.now(),
            retry: undefined,
            closed: false,
          };
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
