import { z } from 'zod';

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
} as const;

export const liveClientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal(LiveType.LOGIN),
    userId: z.number().int(),
    token: z.string().min(1),
    timestamp: z.number(),
  }),
  z.object({ type: z.literal(LiveType.HEARTBEAT), timestamp: z.number() }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal(LiveType.LOGIN_OK), userId: z.number().int(), timestamp: z.number() }),
  z.object({ type: z.literal(LiveType.HEARTBEAT_ACK), timestamp: z.number() }),
  z.object({
    type: z.literal(LiveType.SESSION_ENDED),
    code: z.number().int(),
    reason: z.string(),
    timestamp: z.number(),
  }),
  z.object({ type: z.literal(LiveType.MENUS_CHANGED), timestamp: z.number() }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;

/** Timing constants of §9, shared so client and server agree. */
export const LIVE_TIMING = {
  loginDelayMs: 1500,
  heartbeatMs: 10_000,
  reconnectMs: 2000,
  /** Server drops a socket silent for this long (three missed heartbeats). */
  idleTimeoutMs: 35_000,
  /** Server drops a socket that has not authenticated by then (the client logs in after 1.5 s). */
  loginTimeoutMs: 5_000,
} as const;
