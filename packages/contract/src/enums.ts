/** Enum tuples: one `as const` tuple feeds the database check, the zod enum and the UI. */

export const LANGUAGES = ['zh', 'en', 'es', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Numeric language codes of §1/§9 (zh 1, en 2); es and ja continue the sequence. */
export const LANGUAGE_CODES: Record<Language, number> = { zh: 1, en: 2, es: 3, ja: 4 };

export const DASHBOARD_STYLES = ['default', 'battery', 'voice'] as const;
export type DashboardStyle = (typeof DASHBOARD_STYLES)[number];

/**
 * `state` of /home/devicelist: `offline24h` is offline now and last seen within 24 hours, newest
 * first; the others are sorted by id, newest first.
 */
export const HOME_DEVICE_STATES = ['all', 'online', 'offline', 'alarming', 'offline24h'] as const;
export type HomeDeviceState = (typeof HOME_DEVICE_STATES)[number];

/** User type 0 is a platform administrator; type 1 a company (customer) account (§2, §6). */
export const USER_TYPES = [0, 1] as const;
export type UserType = (typeof USER_TYPES)[number];

/**
 * The super administrator's role: it holds every permission code implicitly, sees every user's
 * objects, and only it gives this role.
 */
export const SUPERADMIN = 'SUPERADMIN';
/** Built-in role identifications (§1, §3). */
export const BUILTIN_ROLES = [SUPERADMIN, 'ADMIN', 'BATTERYMANAGEMENT'] as const;
export type BuiltinRole = (typeof BUILTIN_ROLES)[number];

/** Menu jump type: in-site route or out-of-site link (§3). */
export const JUMP_TYPES = [1, 2] as const;
/** Menu type 1 is a route without a page component (§2); 0 loads a page. */
export const MENU_TYPES = [0, 1] as const;

/** `disabled`: the right password for a disabled account (answered like a wrong one). */
export const LOGIN_RESULTS = ['success', 'failure', 'lockout', 'disabled', 'logout'] as const;
export type LoginResult = (typeof LOGIN_RESULTS)[number];

export const SESSION_END_REASONS = ['logout', 'password', 'replaced', 'disabled', 'admin'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Alarms: their handling state, where they come from, their levels. */
export const ALARM_STATES = ['untreated', 'processed', 'ignored'] as const;
/** untreated; processed; ignored = "no processing required". */
export type AlarmState = (typeof ALARM_STATES)[number];
/** `fence`: the server saw the device leave (or enter) one of its geo-fences (fence-rules.ts). */
export const ALARM_SOURCES = ['rule', 'device', 'fence'] as const;
export type AlarmSource = (typeof ALARM_SOURCES)[number];

/** Alarm notices by phone (issue #39): an SMS or a voice call, and where one stands. */
export const ALARM_NOTICE_CHANNELS = ['sms', 'call'] as const;
export type AlarmNoticeChannel = (typeof ALARM_NOTICE_CHANNELS)[number];
export const ALARM_NOTICE_STATES = ['pending', 'sent', 'failed', 'limited'] as const;
export type AlarmNoticeState = (typeof ALARM_NOTICE_STATES)[number];
/**
 * Why a provider refused a notice for good (not retried): the number, the message (template,
 * signature, parameters), the account (keys, permission, product, balance), its own sending
 * limit of the day or month, or another refusal of the request.
 */
export const ALARM_NOTICE_REASONS = ['number', 'content', 'account', 'quota', 'refused'] as const;
export type AlarmNoticeReason = (typeof ALARM_NOTICE_REASONS)[number];
/**
 * Alarm levels ascend with severity: 4 is the most severe (GB/T 32960's convention, decision 0023).
 * The console names them 1 warning, 2 minor, 3 major, 4 critical.
 */
export const ALARM_LEVELS = [1, 2, 3, 4] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];
/**
 * Alarms of this level and above pop up in the console as they happen, for users who never chose
 * their own level on the profile page.
 */
export const ALARM_NOTIFY_LEVEL = 3;

/** SIM cards and card orders. */
export const CARD_STATUSES = ['inventory', 'testing', 'active', 'suspended', 'deactivated'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];
export const CARD_CARRIERS = ['chinaMobile', 'chinaUnicom', 'chinaTelecom', 'other'] as const;
export type CardCarrier = (typeof CARD_CARRIERS)[number];

export const ORDER_STATUSES = ['unpaid', 'paid', 'cancelled', 'refunded', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** A renewal extends the cards' expiry by its months; a top-up adds data to the allowance. */
export const ORDER_KINDS = ['renewal', 'topup'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
/** How a payment notification was answered (the payment log). */
export const PAYMENT_OUTCOMES = ['paid', 'replay', 'badSignature', 'badAmount', 'unknownOrder', 'notPayable', 'failed'] as const;
export type PaymentOutcome = (typeof PAYMENT_OUTCOMES)[number];

/**
 * How a device is placed on maps: 0 at the position it reports (GPS), 1 at the fixed lng/lat
 * entered here, 2 not shown on maps.
 */
export const MAP_MODES = [0, 1, 2] as const;
/** Datums map tiles are drawn on (MAP_TILE_DATUM): GCJ-02 is mainland China's (geo.ts). */
export const MAP_TILE_DATUMS = ['wgs84', 'gcj02'] as const;
export type MapTileDatum = (typeof MAP_TILE_DATUMS)[number];

/** What the device log records (GET /logs/devicelogs). */
export const DEVICE_LOG_KINDS = [
  'connected',
  'disconnected',
  'online',
  'offline',
  'rejected',
  'alarm',
  'command',
  'ack',
] as const;
export type DeviceLogKind = (typeof DEVICE_LOG_KINDS)[number];

/** What a browser reports (issue #39): an uncaught error, an unhandled rejection, a code chunk that failed to load. */
export const CLIENT_ERROR_KINDS = ['error', 'rejection', 'chunk'] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];
