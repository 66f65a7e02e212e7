import { LIVE_TIMING, LiveType, MAX_LIVE_DEVICES } from '@iot/contract/plain';
import type { LiveClientMessage, LiveServerMessage } from '@iot/contract';
import { API_BASE } from './http';

export type LiveListener = (message: LiveServerMessage) => void;

interface Credentials {
  userId: number;
  token: string;
}

/** ws:// or wss:// to `/api/v1/ws` on the page's own host (the dev server proxies it). */
function liveUrl(): string {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${window.location.host}${API_BASE}/ws`;
}

function parse(data: unknown): LiveServerMessage | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const value = JSON.parse(data) as { type?: unknown };
    return typeof value?.type === 'number' ? (value as LiveServerMessage) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The live channel (§4, §7): LOGIN 1.5 s after open, HEARTBEAT every 10 s, reconnect 2 s after a
 * close unless `stop()` closed it. Features subscribe to server pushes with `subscribe`.
 */
class LiveClient {
  private socket: WebSocket | null = null;
  private credentials: Credentials | null = null;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private readonly listeners = new Set<LiveListener>();
  /** Devices each watcher follows; their union is the socket's subscription. */
  private readonly watched = new Map<symbol, readonly number[]>();
  private loggedIn = false;

  /** Opens the channel for a session; a second call with the same session does nothing. */
  start(credentials: Credentials): void {
    if (typeof WebSocket === 'undefined') {
      console.warn('[live] this browser does not support WebSocket; live updates are off');
      return;
    }
    const same =
      this.credentials?.token === credentials.token &&
      this.credentials.userId === credentials.userId;
    if (same && this.socket) return;
    this.stop();
    this.credentials = credentials;
    this.connect();
  }

  /** Closes the channel on purpose (logout): no reconnect follows. */
  stop(): void {
    this.credentials = null;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    this.loggedIn = false;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000, 'logout');
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Follows devices (their values and online state arrive as DEVICE_VALUES / DEVICE_STATUS) until
   * the returned function is called. Survives reconnects.
   */
  watchDevices(ids: readonly number[]): () => void {
    const key = Symbol('watch');
    this.watched.set(key, ids);
    this.sendSubscription();
    return () => {
      this.watched.delete(key);
      this.sendSubscription();
    };
  }

  private sendSubscription(): void {
    if (!this.loggedIn) return;
    const ids = [...new Set([...this.watched.values()].flat())].slice(0, MAX_LIVE_DEVICES);
    this.send({ type: LiveType.SUBSCRIBE_DEVICES, deviceIds: ids });
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private connect(): void {
    const credentials = this.credentials;
    if (!credentials) return;
    let socket: WebSocket;
    try {
      socket = new WebSocket(liveUrl());
    } catch (err) {
      console.warn('[live] cannot open the live channel', err);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.later(LIVE_TIMING.loginDelayMs, () =>
        this.send({ type: LiveType.LOGIN, ...credentials, timestamp: Date.now() }),
      );
      this.heartbeat = setInterval(
        () => this.send({ type: LiveType.HEARTBEAT, timestamp: Date.now() }),
        LIVE_TIMING.heartbeatMs,
      );
    };
    socket.onmessage = (event: MessageEvent) => {
      const message = parse(event.data);
      if (!message) return;
      if (message.type === LiveType.LOGIN_OK) {
        this.loggedIn = true;
        if (this.watched.size > 0) this.sendSubscription();
      }
      for (const listener of [...this.listeners]) listener(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return; // an old socket closing after stop() or a restart
      this.socket = null;
      this.loggedIn = false;
      this.clearTimers();
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (!this.credentials) return;
    this.later(LIVE_TIMING.reconnectMs, () => this.connect());
  }

  private send(message: LiveClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private later(ms: number, fn: () => void): void {
    this.timers.push(setTimeout(fn, ms));
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}

export const live = new LiveClient();
