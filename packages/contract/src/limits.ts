/**
 * Lengths and patterns of what people type. The API's schemas and the console's forms both use
 * these, so a form never accepts what the API refuses, nor refuses what it accepts.
 */

export const PATTERNS = {
  /** User names: letters and digits of any script, and _ . @ - */
  username: /^[\p{L}\p{N}_.@-]+$/u,
  /** A contact number: digits, spaces and + - ( ) (empty allowed). */
  phone: /^[0-9+\-() ]*$/,
  /** Alarm phone numbers: as `phone`, several separated by commas. */
  alarmPhones: /^[0-9+\-() ,]*$/,
  /** Role, menu and permission identifications: a letter, then letters, digits and _ : . - */
  identification: /^[A-Za-z][A-Za-z0-9_:.-]*$/,
  /** Device type codes and parameter semaphore ids. */
  code: /^[A-Za-z0-9_.-]+$/,
  /** Device codes (SN). */
  sn: /^[A-Za-z0-9_.:-]+$/,
  /** SIM numbers and IMEIs (empty allowed). */
  digits: /^\d*$/,
  /** The site's logo: empty, a path on this server, an http(s) address, or an image as a data URL. */
  siteLogo: /^$|^\/[^/\s]|^https?:\/\/\S+$|^data:image\/(png|jpeg|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/,
} as const;

export const USER_LIMITS = {
  username: 64,
  corporateName: 128,
  corporateAddress: 256,
  contactNumber: 32,
  introduction: 500,
} as const;

/**
 * A user's stored screen settings (`/user/preferences/:key`): how many keys a user keeps, the
 * largest value (bytes of its JSON) and, for a column choice, how many columns it names.
 */
export const USER_PREFERENCE_LIMITS = { keys: 50, bytes: 4096, columns: 100, columnKey: 40 } as const;

/** Roles, permissions and menus. */
export const ACL_LIMITS = { name: 64, identification: 64, menuUrl: 256, icon: 64, sort: 100_000 } as const;

export const DEVICE_TYPE_LIMITS = { code: 32, name: 64, remarks: 500 } as const;

/** A device type's parameter list (the parameter settings page saves it at once). */
export const PARAM_LIMITS = {
  semaphoreId: 32,
  name: 64,
  unit: 16,
  groupName: 32,
  enumValue: 32,
  enumLabel: 64,
  enumCount: 64,
  precision: 6,
  sort: 100_000,
  rows: 500,
} as const;

/** A device type's alarm rules. */
export const ALARM_LIMITS = {
  threshold: 64,
  message: 128,
  /** Seconds the condition must hold before it alarms. */
  holdSeconds: 86_400,
  levels: [1, 2, 3, 4],
  rows: 500,
} as const;

/** Projects and their road sections (`points`: how many points a section's line has at most). */
/** Longest values the site settings page accepts (issue #39); the logo as a data URL of ~150 KB. */
export const SITE_LIMITS = { title: 64, company: 128, copyright: 128, address: 200, tel: 32, email: 254, logo: 200_000 } as const;

/** A browser's error report (issue #39): each field capped, the browser sends them cut to size. */
export const CLIENT_ERROR_LIMITS = { message: 500, stack: 4000, route: 256, version: 64, userAgent: 256, perPage: 10, exportMax: 10_000 } as const;

export const PROJECT_LIMITS = { name: 64, remarks: 500, address: 256, description: 500, sort: 100_000, points: 5000 } as const;

/** What devices send (docs/PROTOCOL.md): a text parameter value longer than this is dropped (`outOfRange`). */
export const PROTOCOL_LIMITS = { textValue: 256 } as const;

export const DEVICE_LIMITS = {
  name: 64,
  sn: 64,
  address: 256,
  alarmPhone: 32,
  cameraSerial: 64,
  btCode: 64,
  version4g: 64,
  hardwareVersion: 64,
  simNumber: 24,
  imei: 17,
  manufacturerModel: 64,
  remarks: 500,
  description: 1000,
} as const;

/** §5: the message the spec gives for a short password. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MIN_MESSAGE = 'the password can not be less than 6 digits';
export const PASSWORD_MAX = 128;

/** §5: at most 3 emails per user. */
export const MAX_EMAILS = 3;

/** The navbar search (GET /search): hits per group (devices, projects, users). */
export const SEARCH_GROUP_LIMIT = 5;

/** The home dashboard (/home/*): periods in days, list sizes. */
export const HOME_LIMITS = {
  days: [7, 30],
  /** Projects of /home/projectlist. */
  projects: 10,
  /** Top lists (/home/gettop5, /home/battery). */
  top: 5,
  /** Recent call-outs of /home/voice. */
  recent: 10,
} as const;

/** Alarms: a processing note, one processing request, one export. */
export const ALARM_NOTE_MAX = 256;
/** Alarms one processing request may handle. */
export const ALARM_BULK_MAX = 500;
export const ALARM_EXPORT_MAX = 10_000;

/** SIM cards and card orders. */
export const CARD_LIMITS = {
  iccid: 20,
  msisdn: 15,
  imsi: 15,
  plan: 64,
  groupId: 32,
  remarks: 500,
  /** Voice whitelist numbers a member card may hold (OneLink's member whitelist limit). */
  whitelistMax: 10,
  whiteNumber: 20,
  /** Months of one renewal. */
  months: 36,
  /** Cards of one order. */
  orderCards: 500,
  /** Price of one card for one month (or one top-up), in cents. */
  unitPriceCents: 1_000_000,
  /** An order's whole amount, in cents (¥10,000,000). */
  amountCents: 1_000_000_000,
  topupMb: 1_000_000,
  /** Days of the expiring list. */
  expiringDays: 366,
} as const;

/** The fleet and project maps (/map/positions). */
export const MAP_LIMITS = {
  /** Devices one answer carries; past it `truncated` says the map shows only the first ones (by id). */
  devices: 100_000,
} as const;
