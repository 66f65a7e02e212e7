/**
 * Live channel `/api/v1/ws` (§4, §7). The client sends LOGIN 1.5 s after open and HEARTBEAT every
 * 10 s; the server answers and pushes events. See docs/LIVE.md.
 */
export const LiveType = {
  /** client → server: authenticate this socket. */
  LOGIN: 110,
  /** server → client: socket authenticated. */
  LOGIN_OK: 111,
  /** client → server: keep-alive. */
  HEARTBEAT: 80,
  /** server → client: keep-alive answer. */
  HEARTBEAT_ACK: 81,
  /** server → client: the session behind this socket ended; `code` is 50008/50012/50014. */
  SESSION_ENDED: 120,
  /** server → client: the user's menus or permissions changed; reload them. */
  MENUS_CHANGED: 130,
  /** client → server: the devices the page shows (replaces the previous set; [] stops). */
  SUBSCRIBE_DEVICES: 140,
  /** server → client: the subscribed devices the user may see (others are left out). */
  DEVICES_SUBSCRIBED: 141,
  /**
   * server → client: the user may no longer see these followed devices (a project unshared, the
   * device moved or deleted, a permission lost); they are no longer followed and nothing more of
   * them arrives.
   */
  DEVICES_REVOKED: 142,
  /** server → client: new values of a subscribed device, at most about one a second per device. */
  DEVICE_VALUES: 150,
  /** server → client: a subscribed device went online or offline. */
  DEVICE_STATUS: 151,
  /** server → client: a command to a subscribed device changed state. */
  DEVICE_COMMAND: 152,
  /**
   * server → client: alarms started, ended or were processed. Sent to every socket of a user who
   * may see the alarms' devices (no subscription needed: the navbar bell listens on every page).
   */
  ALARMS: 160,
  /**
   * server → client: the dashboard's figures changed (a device the user may see went online or
   * offline, or one of its alarms started, ended or was processed): refetch them. At most one a
   * second per user, only to users holding `home:view`; no subscription needed.
   */
  HOME_CHANGED: 170,
} as const;


/**
 * Devices one socket follows at most: the largest set the console follows is a device-list page
 * (100) beside an open device. A longer request is cut to its first ones (DEVICES_SUBSCRIBED says
 * which are followed).
 */
export const MAX_LIVE_DEVICES = 200;

/** Ids one SUBSCRIBE_DEVICES message may carry (a longer one is ignored as malformed). */
export const MAX_LIVE_REQUEST_IDS = 1000;

/** Timing constants of §9, shared so client and server agree. */
export const LIVE_TIMING = {
  loginDelayMs: 1500,
  heartbeatMs: 10_000,
  reconnectMs: 2000,
  /** Server drops a socket silent for this long (three missed heartbeats). */
  idleTimeoutMs: 35_000,
  /** Server drops a socket that has not authenticated by then (the client logs in after 1.5 s). */
  loginTimeoutMs: 5_000,
  /** Coalesced device values are pushed this often (at most one update per device per period). */
  devicePushMs: 1000,
  /** HOME_CHANGED goes to one user at most this often. */
  homePushMs: 1000,
} as const;

/** HOME_CHANGED is sent at most this often to one user. */
export const HOME_PUSH_MS = LIVE_TIMING.homePushMs;
