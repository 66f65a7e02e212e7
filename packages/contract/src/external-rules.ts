/**
 * External devices (§2 /upgrade/external, §7 Hardware and /external/*): modules outside the
 * registry (a production line's, by IMEI or serial) that check in over HTTP to ask for firmware
 * (docs/PROTOCOL.md, "External devices"). Zod-free: the console reads these.
 *
 * An assignment moves `assigned` (the next check-in hands the version over) → `downloading`
 * (the image is fetched, or the device reports a percent) → `installing` (100 %, or the device
 * said ok and its next check-in must report the new version) and ends `succeeded` (the reported
 * version equals the assigned one), `failed` (the device's error, another version reported after
 * an ok, or "timed out": no news within the assignment's timeout) or `cancelled`. `none`: never
 * assigned. Nothing stays in progress: every open state has a deadline.
 */
export const EXTERNAL_STATES = ['none', 'assigned', 'downloading', 'installing', 'succeeded', 'failed', 'cancelled'] as const;
export type ExternalState = (typeof EXTERNAL_STATES)[number];
export const EXTERNAL_OPEN_STATES: readonly ExternalState[] = ['assigned', 'downloading', 'installing'];

/**
 * What the external log records: every check-in, an operator's assignment and cancel, a download
 * of the image, a progress report, the device's result and how the assignment ended.
 */
export const EXTERNAL_EVENTS = ['checkin', 'assign', 'cancel', 'download', 'progress', 'result', 'succeeded', 'failed'] as const;
export type ExternalEvent = (typeof EXTERNAL_EVENTS)[number];
/** The upgrade events (`/external/loglist`): all but the plain check-ins. */
export const EXTERNAL_UPGRADE_EVENTS: readonly ExternalEvent[] = EXTERNAL_EVENTS.filter((e) => e !== 'checkin');

/** The reason an assignment ends with when its device stayed silent past its deadline. */
export const EXTERNAL_TIMED_OUT = 'timed out';

export const EXTERNAL_LIMITS = {
  identifierMax: 64,
  nameMax: 64,
  modelMax: 64,
  versionMax: 64,
  messageMax: 500,
  /** Identifiers one addDevice call registers. */
  bulkMax: 1000,
  /** Devices one setupgrade / closeupgrade / deleteDevice names. */
  selectedMax: 1000,
  /** Seconds an assignment may go without progress or a result before it fails "timed out". */
  timeoutMinSec: 60,
  timeoutMaxSec: 7 * 86_400,
  timeoutDefaultSec: 3600,
} as const;

/** IMEI, serial: letters, digits and `_ . -` (no colon: it separates the Basic credentials). */
export const EXTERNAL_IDENTIFIER_PATTERN = /^[A-Za-z0-9_.-]+$/;
