/**
 * Geo-fences issued to devices (§3 geo-fence: lng, lat, radius; §4 fence states; §7
 * /device/setfence, /device/setclosefence, /device/setrefence). Zod-free: the console reads these.
 *
 * A fence moves through the spec's states: `set` (sent, waiting for the device) → `issued`
 * (the device said ok) / `failed` (it answered error, or not before the command expired) /
 * `offline` (the device was offline: nothing sent); an issued fence is `removed` or `relocked`.
 * Every transition is kept as history. The device's own fence id is `fence-<id>`.
 */
export const FENCE_STATES = ['set', 'issued', 'failed', 'offline', 'removed', 'relocked'] as const;
export type FenceState = (typeof FENCE_STATES)[number];

/** What a device does when it leaves a geo-fence: raise an alarm, or lock (cut its output). */
export const FENCE_ACTIONS = ['alarm', 'lock'] as const;
export type FenceAction = (typeof FENCE_ACTIONS)[number];

/** What an operator asks of a fence: set it, remove it (fenceClose), re-lock it (fenceRelock). */
export const FENCE_OPS = ['set', 'close', 'relock'] as const;
export type FenceOp = (typeof FENCE_OPS)[number];

/** States in which the device keeps the fence: the server checks its fixes against these. */
export const FENCE_KEPT_STATES: readonly FenceState[] = ['issued', 'relocked'];

/** The fence id the device knows a fence by (docs/PROTOCOL.md `fenceId`). */
export const deviceFenceId = (id: number) => `fence-${id}`;

export const FENCE_LIMITS = {
  /** Radius in whole metres (the `fenceSet` command's bounds, docs/PROTOCOL.md). */
  radiusMin: 10,
  radiusMax: 100_000,
  /** Fences a device keeps or waits for at once (failed, offline and removed ones do not count). */
  perDevice: 10,
  /** Fences the list returns for a device, newest first, each with its whole history. */
  listed: 50,
} as const;

/** How long the console waits for the device's answer to a fence command. */
export const FENCE_COMMAND_TTL_MS = 60_000;

/**
 * Levels of the alarms the server raises (decision 0023, 4 the most severe): leaving a fence is
 * major (3: it pops up by default), entering one, when asked for, minor (2).
 */
export const FENCE_ALARM_LEVELS = { leave: 3, enter: 2 } as const;

/** The name of a fence alarm in the four languages (it is about no parameter of the type). */
export const FENCE_ALARM_NAMES = { zh: '电子围栏', en: 'Geo-fence', es: 'Geocerca', ja: 'ジオフェンス' } as const;

/**
 * Hysteresis of the crossing check, metres: a device counts as out only past `radius + band`
 * and as back in only within `radius`, so GPS jitter on the border does not flap.
 */
export const fenceBand = (radius: number) => Math.max(20, radius * 0.05);

/**
 * Whether the device is inside the fence after a fix `distance` metres from its centre, given
 * what it was before (`undefined`: not known yet, the first fix after the fence was issued).
 */
export function insideAfter(before: boolean | undefined, distance: number, radius: number): boolean {
  const band = fenceBand(radius);
  if (before === undefined) return distance <= radius + band;
  return before ? distance <= radius + band : distance <= radius;
}
