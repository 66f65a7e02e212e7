import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { FIRMWARE_LIMITS, IMPORT_MAX_ROWS, IMPORT_MAX_ROWS_EMBEDDED, MAP_TILE_DATUMS, type MapTileDatum } from '@iot/contract';

/**
 * The one place the environment is read. Every variable is validated here; a bad value stops
 * start-up with a message that names the variable (see README "Configuration").
 */
const onOff = z.enum(['on', 'off']);

const anyDuration = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'a duration such as 3600, 30m, 12h or 7d')
  .transform((v) => {
    const n = Number.parseInt(v, 10);
    const unit = v.trim().slice(-1);
    const mult = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86400 : 1;
    return n * mult;
  });
const durationSeconds = anyDuration.refine((s) => s >= 60, 'at least 60 seconds');

const port = z.coerce.number().int().min(0).max(65535);

const urlWith = (schemes: string[]) =>
  z
    .string()
    .url()
    .refine((u) => schemes.some((s) => u.startsWith(`${s}://`)), `a ${schemes.join('/')}:// URL`);

/**
 * Origins a browser may fetch media from (EZVIZ_MEDIA_ORIGINS), separated by spaces or commas:
 * `https://hls01open.ys7.com`, `https://*.ys7.com`, `http://10.0.0.5:8080`; no path.
 */
const mediaOrigins = z
  .string()
  .trim()
  .max(2048)
  .transform((text, ctx): string[] => {
    const list = text.split(/[\s,]+/).filter(Boolean);
    const bad = list.find((o) => !/^https?:\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/.test(o));
    if (bad !== undefined || !list.length) {
      ctx.addIssue({ code: 'custom', message: `origins such as https://*.ys7.com (not ${bad ?? 'empty'})`, input: text });
      return z.NEVER;
    }
    return list;
  });

/**
 * The hosts a video platform serves its live streams from when EZVIZ_MEDIA_ORIGINS is not set:
 * every host of the API's domain (`https://open.ys7.com` → `https://*.ys7.com`), or the API's
 * origin itself for an address or a one-label host (a local platform).
 */
export function platformMediaOrigins(baseUrl: string): string[] {
  const url = new URL(baseUrl);
  const labels = url.hostname.split('.');
  if (/^[\d.]+$|^\[/.test(url.hostname) || labels.length < 2) return [url.origin];
  return [`${url.protocol}//*.${labels.slice(-2).join('.')}`, url.origin];
}

/**
 * A map tile URL template (MAP_TILE_URL) such as `https://{s}.tile.example.com/{z}/{x}/{y}.png`,
 * or a same-origin path such as `/tiles/{z}/{x}/{y}.png` (a tile server behind the same proxy).
 * Gives the template and the origin the Content-Security-Policy must allow images from: `{s}`
 * (subdomains) may only be the host's first label, which becomes `*.` there; a path needs none.
 */
const tileTemplate = z
  .string()
  .trim()
  .max(2048)
  .transform((url, ctx): { url: string; origin?: string } => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message, input: url });
      return z.NEVER;
    };
    if (!['{z}', '{x}', '{y}'].every((p) => url.includes(p))) return fail('a tile URL template with {z}, {x} and {y}');
    if (/\s/.test(url)) return fail('no spaces');
    if (url.startsWith('/') && !url.startsWith('//')) return { url };
    const m = /^(https?):\/\/([^/?#]+)[/?#]/.exec(url);
    if (!m) return fail('an http:// or https:// URL, or a path starting with /');
    const [, scheme, host] = m as unknown as [string, string, string];
    const wildcard = host.startsWith('{s}.');
    const rest = wildcard ? host.slice(4) : host;
    if (rest.includes('@')) return fail('no user name or password in the URL');
    if (/[{}]/.test(rest)) return fail('{s} only as the first label of the host (https://{s}.tile.example.com/…)');
    let parsed: URL;
    try {
      parsed = new URL(`${scheme}://${rest}/`);
    } catch {
      return fail('an http:// or https:// URL, or a path starting with /');
    }
    return { url, origin: `${scheme}://${wildcard ? '*.' : ''}${parsed.host}` };
  });

const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWith(['postgres', 'postgresql']).optional(),
  /** Rows one spreadsheet import may take (default 100,000 on PostgreSQL, 20,000 on PGlite). */
  IMPORT_MAX_ROWS: z.coerce.number().int().min(1).max(IMPORT_MAX_ROWS).optional(),
  /** The largest firmware image an upload may carry, in MB (docs/OPERATIONS.md, Firmware images). */
  FIRMWARE_MAX_MB: z.coerce.number().positive().max(FIRMWARE_LIMITS.maxMbMax).default(FIRMWARE_LIMITS.maxMbDefault),
  DATABASE_PARALLEL_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
  /** statement_timeout of the console's PostgreSQL connections (0: none). */
  DATABASE_STATEMENT_TIMEOUT: anyDuration.refine((s) => s <= 86_400, 'at most a day').default(30),
  /** Heavy reads (long ranges, exports) one user may run at once. */
  HEAVY_READS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /** Heavy reads the process runs at once (its own PostgreSQL connections). */
  HEAVY_READS_TOTAL: z.coerce.number().int().min(1).max(100).default(4),
  MQTT_PORT: port.default(1883),
  /** Embedded broker: largest MQTT packet a device may send, in bytes (refused from its header). */
  MQTT_MAX_PACKET: z.coerce.number().int().min(1024).max(256 * 1024 * 1024).default(256 * 1024),
  /** Embedded broker: seconds a new connection has to send CONNECT. */
  MQTT_CONNECT_TIMEOUT: anyDuration.refine((s) => s >= 1 && s <= 300, 'between 1 and 300 seconds').default(10),
  /** Embedded broker: new connections per client address and minute (0: no limit). */
  MQTT_CONNECTS_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(600),
  /** Embedded broker: MQTT over TLS on this port, with MQTT_TLS_CERT and MQTT_TLS_KEY (PEM files). */
  MQTT_TLS_PORT: port.optional(),
  MQTT_TLS_CERT: z.string().min(1).optional(),
  /** Embedded broker: MQTT over WebSocket on this port (path /mqtt). */
  MQTT_WS_PORT: port.optional(),
  MQTT_TLS_KEY: z.string().min(1).optional(),
  MQTT_URL: urlWith(['mqtt', 'mqtts', 'ws', 'wss', 'tcp']).optional(),
  MQTT_USERNAME: z.string().min(1).max(256).optional(),
  MQTT_PASSWORD: z.string().min(1).max(256).optional(),
  MQTT_CLIENT_ID: z
    .string()
    .max(128)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only')
    .optional(),
  MQTT_SHARE_GROUP: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits and _ . - only')
    .default('iot-console'),
  MQTT_SESSION_EXPIRY: anyDuration.refine((s) => s >= 60, 'at least 60 seconds').default(3600),
  BROKER_AUTH_SECRET: z.string().min(16, 'at least 16 characters').max(256).optional(),
  REDIS_URL: urlWith(['redis', 'rediss']).optional(),
  REDIS_CHANNEL: z
    .string()
    .max(128)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only')
    .default('iot:events'),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').max(256).optional(),
  ADMIN_USERNAME: z.string().trim().min(1).max(64).default('admin'),
  ADMIN_PASSWORD: z.string().min(6, 'at least 6 characters').max(128).optional(),
  CAPTCHA: onOff.default('on'),
  DEMO: onOff.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_TTL: durationSeconds.default(12 * 3600),
  SESSION_CACHE_TTL: anyDuration.refine((s) => s <= 60, 'at most 60 seconds').default(5),
  TELEMETRY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  OPERATION_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  ALARM_NOTICE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  DEVICE_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  DEVICE_OFFLINE_AFTER: anyDuration.refine((s) => s >= 1, 'at least 1 second').default(300),
  LOGIN_LOCKOUT: onOff.default('on'),
  RESPONSE_CHECK: onOff.default('off'),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: onOff.default('off'),
  API_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(600),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(30),
  SMTP_URL: urlWith(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().trim().min(3).max(256).default('IoT console <noreply@localhost>'),
  ALARM_MAIL_MIN_LEVEL: z.coerce.number().int().min(1).max(4).default(3),
  ALARM_MAIL_INTERVAL: anyDuration.refine((s) => s >= 1, 'at least 1 second').default(900),
  DEVICE_ALARM_LEVEL: z.coerce.number().int().min(1).max(4).default(2),
  ALARM_NOTIFY_PROVIDER: z.enum(['simulated', 'aliyun']).default('simulated'),
  ALARM_NOTIFY_DEMO: onOff.default('off'),
  ALARM_NOTIFY_PER_DEVICE: z.coerce.number().int().min(1).max(10_000).default(20),
  ALARM_NOTIFY_PER_NUMBER: z.coerce.number().int().min(1).max(10_000).default(10),
  ALARM_NOTIFY_WINDOW: anyDuration.refine((s) => s >= 60 && s <= 7 * 86_400, 'between 60 seconds and 7 days').default(3600),
  ALARM_NOTIFY_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(4),
  ALARM_NOTIFY_BACKOFF: anyDuration.refine((s) => s <= 3600, 'at most an hour').default(30),
  ALARM_PHONE_MIN_LEVEL: z.coerce.number().int().min(1).max(4).default(3),
  ALIYUN_ACCESS_KEY_ID: z.string().trim().min(1).max(128).optional(),
  ALIYUN_ACCESS_KEY_SECRET: z.string().min(1).max(256).optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().trim().min(1).max(64).optional(),
  ALIYUN_SMS_TEMPLATE: z.string().trim().min(1).max(64).optional(),
  ALIYUN_TTS_TEMPLATE: z.string().trim().min(1).max(64).optional(),
  ALIYUN_TTS_SHOW_NUMBER: z.string().trim().min(1).max(32).optional(),
  ALIYUN_SMS_URL: urlWith(['http', 'https']).default('https://dysmsapi.aliyuncs.com'),
  ALIYUN_VOICE_URL: urlWith(['http', 'https']).default('https://dyvmsapi.aliyuncs.com'),
  VIDEO_PROVIDER: z.enum(['simulated', 'ezviz']).default('simulated'),
  EZVIZ_BASE_URL: urlWith(['http', 'https']).default('https://open.ys7.com'),
  EZVIZ_APP_KEY: z.string().trim().min(1).max(128).optional(),
  EZVIZ_APP_SECRET: z.string().min(1).max(256).optional(),
  /** Where the platform's HLS playlists and segments come from (CSP); default: its domain's hosts. */
  EZVIZ_MEDIA_ORIGINS: mediaOrigins.optional(),
  /** Open-Meteo's address for project forecasts; `off` fetches none. */
  WEATHER_URL: z.union([z.literal('off'), urlWith(['http', 'https'])]).default('https://api.open-meteo.com'),
  CONSOLE_URL: urlWith(['http', 'https']).optional(),
  MAP_TILE_URL: tileTemplate.optional(),
  MAP_TILE_ATTRIBUTION: z.string().trim().max(500).default(''),
  MAP_TILE_DATUM: z.enum(MAP_TILE_DATUMS).default('wgs84'),
  CARRIER: z.enum(['simulated', 'onelink']).default('simulated'),
  ONELINK_BASE_URL: urlWith(['http', 'https']).optional(),
  ONELINK_APP_ID: z.string().trim().min(1).max(64).optional(),
  ONELINK_PASSWORD: z.string().min(1).max(256).optional(),
  ONELINK_RATE_LIMIT: z.coerce.number().int().min(1).max(1000).default(10),
  CARD_WHITELIST_MAX: z.coerce.number().int().min(1).max(100).default(10),
  CARRIER_CACHE_TTL: anyDuration.refine((s) => s <= 86_400, 'at most a day').default(60),
  CARD_EXPIRY_NOTICE_DAYS: z.coerce.number().int().min(1).max(366).default(30),
  PAYMENT_PROVIDER: z.enum(['simulated', 'wechat']).default('simulated'),
  ORDER_PAY_TIMEOUT: anyDuration.refine((s) => s >= 60, 'at least 60 seconds').default(1800),
  WECHAT_PAY_BASE_URL: urlWith(['http', 'https']).default('https://api.mch.weixin.qq.com'),
  WECHAT_PAY_APP_ID: z.string().trim().min(1).max(64).optional(),
  WECHAT_PAY_MCH_ID: z.string().trim().min(1).max(64).optional(),
  WECHAT_PAY_SERIAL_NO: z.string().trim().min(1).max(128).optional(),
  WECHAT_PAY_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  WECHAT_PAY_PLATFORM_CERT_FILE: z.string().min(1).optional(),
  WECHAT_PAY_API_V3_KEY: z.string().length(32, 'exactly 32 characters').optional(),
  WECHAT_PAY_NOTIFY_URL: urlWith(['https', 'http']).optional(),
}).superRefine((e, ctx) => {
  const need = (when: boolean, names: (keyof typeof e)[], because: string) => {
    if (!when) return;
    for (const name of names) {
      if (e[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: `required when ${because}` });
    }
  };
  need(e.MQTT_TLS_PORT !== undefined, ['MQTT_TLS_CERT', 'MQTT_TLS_KEY'], 'MQTT_TLS_PORT is set');
  need(
    e.ALARM_NOTIFY_PROVIDER === 'aliyun',
    ['ALIYUN_ACCESS_KEY_ID', 'ALIYUN_ACCESS_KEY_SECRET', 'ALIYUN_SMS_SIGN_NAME', 'ALIYUN_SMS_TEMPLATE', 'ALIYUN_TTS_TEMPLATE'],
    'ALARM_NOTIFY_PROVIDER=aliyun',
  );
  need(e.VIDEO_PROVIDER === 'ezviz', ['EZVIZ_APP_KEY', 'EZVIZ_APP_SECRET'], 'VIDEO_PROVIDER=ezviz');
  need(e.CARRIER === 'onelink', ['ONELINK_BASE_URL', 'ONELINK_APP_ID', 'ONELINK_PASSWORD'], 'CARRIER=onelink');
  need(
    e.PAYMENT_PROVIDER === 'wechat',
    ['WECHAT_PAY_APP_ID', 'WECHAT_PAY_MCH_ID', 'WECHAT_PAY_SERIAL_NO', 'WECHAT_PAY_PRIVATE_KEY_FILE', 'WECHAT_PAY_PLATFORM_CERT_FILE', 'WECHAT_PAY_API_V3_KEY', 'WECHAT_PAY_NOTIFY_URL'],
    'PAYMENT_PROVIDER=wechat',
  );
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  importMaxRows: number;
  /** Bytes a firmware upload may carry (FIRMWARE_MAX_MB). */
  firmwareMaxBytes: number;
  /** PostgreSQL's max_parallel_workers_per_gather for the console's connections (docs/ARCHITECTURE.md). */
  databaseParallelWorkers: number;
  /** statement_timeout of the console's PostgreSQL connections in ms (0: none); jobs lift it (db/client.ts). */
  statementTimeoutMs: number;
  /**
   * Heavy reads (routes declared `heavy` in the contract): running at once per user (as many
   * more wait) and in the process, which is also the heavy pool's size (lib/heavy-reads.ts).
   */
  heavyReads: { perUser: number; total: number };
  mqttPort: number;
  /** MQTT_PORT was set: a busy port is then an error, not a warning. */
  mqttPortSet: boolean;
  /** External broker (MQTT_URL): the embedded one is not started. */
  mqttUrl?: string;
  /** The embedded broker's limits (docs/PROTOCOL.md "Limits"). */
  mqttLimits: { maxPacketBytes: number; connectTimeoutMs: number; connectsPerMinute: number };
  /** The embedded broker's TLS listener. */
  mqttTls?: { port: number; certFile: string; keyFile: string };
  /** The embedded broker's MQTT-over-WebSocket listener. */
  mqttWsPort?: number;
  /** The server's own login at the external broker (MQTT_USERNAME or the URL's user). */
  mqttUsername?: string;
  mqttPassword?: string;
  /** Stable client id of this instance at the external broker (its persistent session). */
  mqttClientId: string;
  /** Shared-subscription group the instances split the device messages in. */
  mqttShareGroup: string;
  /** Seconds the external broker keeps this instance's session while it is away (MQTT 5). */
  mqttSessionExpiry: number;
  /** Shared secret the broker sends to the /broker/* auth hooks; unset: the hooks refuse. */
  brokerAuthSecret?: string;
  /** Redis that fans domain events out between instances (decision 0035); unset: in-process. */
  redisUrl?: string;
  /** Pub/sub channel of the events: the same on every instance of one console, distinct per console. */
  redisChannel: string;
  /**
   * Bearer token Prometheus sends to scrape `/metrics` (METRICS_TOKEN); unset, there is no
   * `/metrics` (404) and nothing is measured.
   */
  metricsToken?: string;
  adminUsername: string;
  adminPassword?: string;
  captcha: boolean;
  /**
   * The demo fleet (simulated devices streaming inside the server): `on` creates it when missing
   * and runs it; `auto` (DEMO unset with the embedded database) creates it only on an empty
   * registry and runs one created earlier; `off` never.
   */
  demo: 'on' | 'off' | 'auto';
  logLevel: string;
  /** Idle lifetime of a session in seconds; every use slides it forward. */
  sessionTtl: number;
  /**
   * Seconds a signed-in request's session, user and role codes are reused from memory
   * (SESSION_CACHE_TTL; 0 = read on every request). Any change to them reaches the cache at
   * once (auth_changed notifications); this is the limit if the listener misses one.
   */
  sessionCacheTtl: number;
  /** Lock an account for 15 minutes after 5 failed logins from one address. */
  loginLockout: boolean;
  /**
   * Every answer also checked against its contract schema by zod (RESPONSE_CHECK; tests and the
   * E2E server turn it on): see lib/serializer.ts.
   */
  responseCheck: boolean;
  /** Whole days of telemetry kept; older days are dropped as partitions. */
  telemetryRetentionDays: number;
  /** Days of operation logs kept; older rows are deleted once a day, in batches. */
  operationLogRetentionDays: number;
  /** Days alarm SMS and call records are kept (ALARM_NOTICE_RETENTION_DAYS); queued ones stay. */
  alarmNoticeRetentionDays: number;
  /** Seconds of silence after which a device is marked offline. */
  deviceOfflineAfter: number;
  /** Messages per second one device may send (bursts of twice that). */
  deviceRateLimit: number;
  /** Folder of the built web console; defaults to apps/web/dist. */
  webDist: string;
  /** Take the client address from X-Forwarded-For (only behind a trusted reverse proxy). */
  trustProxy: boolean;
  /** Requests a minute one session may make to authenticated routes; 0 turns the limit off. */
  apiRateLimit: number;
  /** Login attempts a minute from one address (an office behind one NAT address may need more). */
  loginRateLimit: number;
  /** SMTP server of the alarm e-mails (smtp:// or smtps://); unset: the mails are logged. */
  smtpUrl?: string;
  /** Sender of the alarm e-mails. */
  mailFrom: string;
  /** Alarms of this level and above are e-mailed. */
  alarmMailMinLevel: number;
  /** Seconds between two mails about the same device and rule. */
  alarmMailInterval: number;
  /** Level of a device-raised alarm whose parameter has no alarm rule. */
  deviceAlarmLevel: number;
  /** Public address of the console, for links in e-mails. */
  consoleUrl?: string;
  /** Camera live addresses (VIDEO_PROVIDER): the simulated player, or the EZVIZ open platform. */
  video:
    | { kind: 'simulated' }
    | { kind: 'ezviz'; baseUrl: string; appKey: string; appSecret: string; /** CSP connect-src and media-src. */ mediaOrigins: string[] };
  /** Open-Meteo's base for project forecasts (WEATHER_URL); undefined: no forecasts. */
  weatherUrl?: string;
  /** Alarm SMS and voice calls (issue #39, decision 0037; docs/OPERATIONS.md). */
  alarmNotify: AlarmNotifyConfig;
  /**
   * Map tiles the console draws under device positions (MAP_TILE_URL, a Leaflet URL template);
   * unset: the console draws its bundled world outline and loads nothing from elsewhere.
   */
  mapTileUrl?: string;
  /** Where the tiles come from, for the Content-Security-Policy's img-src; unset: same origin. */
  mapTileOrigin?: string;
  /** Plain-text attribution shown on the tiles (MAP_TILE_ATTRIBUTION). */
  mapTileAttribution: string;
  /** The datum of those tiles (MAP_TILE_DATUM): `gcj02` makes the console convert positions. */
  mapTileDatum: MapTileDatum;
  /** Where live SIM card data comes from (CARRIER): the built-in simulation or China Mobile OneLink. */
  carrier: CarrierConfig;
  /** Seconds a carrier answer is reused before the carrier is asked again (CARRIER_CACHE_TTL). */
  carrierCacheTtl: number;
  /** Owners are mailed about cards expiring within this many days (CARD_EXPIRY_NOTICE_DAYS). */
  cardExpiryNoticeDays: number;
  /** Payments of card orders (PAYMENT_PROVIDER). */
  payment: PaymentConfig;
  /** Seconds an unpaid card order stays payable (ORDER_PAY_TIMEOUT). */
  orderPayTimeout: number;
}

export interface AlarmNotifyConfig {
  provider:
    | { kind: 'simulated' }
    | {
        kind: 'aliyun';
        accessKeyId: string;
        accessKeySecret: string;
        signName: string;
        smsTemplate: string;
        ttsTemplate: string;
        showNumber?: string;
        smsUrl: string;
        voiceUrl: string;
      };
  /** The demo fleet's alarms are sent too (ALARM_NOTIFY_DEMO=on). */
  demo: boolean;
  perDevice: number;
  perNumber: number;
  windowSeconds: number;
  attempts: number;
  backoffSeconds: number;
  /** The device's alarm phone gets call-outs of this level and above. */
  deviceMinLevel: number;
}

export type CarrierConfig =
  | { kind: 'simulated'; whitelistMax: number }
  | { kind: 'onelink'; whitelistMax: number; baseUrl: string; appId: string; password: string; ratePerSecond: number };

export type PaymentConfig =
  | { kind: 'simulated' }
  | {
      kind: 'wechat';
      baseUrl: string;
      appId: string;
      mchId: string;
      serialNo: string;
      privateKeyFile: string;
      /** `[serial=]path` entries of WECHAT_PAY_PLATFORM_CERT_FILE. */
      platformKeyFiles: { serial?: string; file: string }[];
      apiV3Key: string;
      notifyUrl: string;
    };

/** Entries of WECHAT_PAY_PLATFORM_CERT_FILE: `path` or `serial=path`, separated by commas. */
export function platformKeyFiles(spec: string): { serial?: string; file: string }[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=');
      return eq > 0 ? { serial: entry.slice(0, eq).trim(), file: entry.slice(eq + 1).trim() } : { file: entry };
    });
}

export class ConfigError extends Error {}

/** Reads and validates the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.keys(envSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const brokerUrl = e.MQTT_URL ? new URL(e.MQTT_URL) : undefined;
  const fromUrl = (v: string | undefined) => (v ? decodeURIComponent(v) : undefined);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    importMaxRows: e.IMPORT_MAX_ROWS ?? (e.DATABASE_URL ? IMPORT_MAX_ROWS : IMPORT_MAX_ROWS_EMBEDDED),
    firmwareMaxBytes: Math.floor(e.FIRMWARE_MAX_MB * 1024 * 1024),
    databaseParallelWorkers: e.DATABASE_PARALLEL_WORKERS,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT * 1000,
    heavyReads: { perUser: e.HEAVY_READS_PER_USER, total: e.HEAVY_READS_TOTAL },
    mqttPort: e.MQTT_PORT,
    mqttPortSet: cleaned.MQTT_PORT !== undefined,
    mqttUrl: e.MQTT_URL,
    mqttLimits: { maxPacketBytes: e.MQTT_MAX_PACKET, connectTimeoutMs: e.MQTT_CONNECT_TIMEOUT * 1000, connectsPerMinute: e.MQTT_CONNECTS_PER_MINUTE },
    mqttWsPort: e.MQTT_WS_PORT,
    mqttTls: e.MQTT_TLS_PORT ? { port: e.MQTT_TLS_PORT, certFile: path.resolve(e.MQTT_TLS_CERT!), keyFile: path.resolve(e.MQTT_TLS_KEY!) } : undefined,
    mqttUsername: e.MQTT_USERNAME ?? fromUrl(brokerUrl?.username),
    mqttPassword: e.MQTT_PASSWORD ?? fromUrl(brokerUrl?.password),
    mqttClientId: e.MQTT_CLIENT_ID ?? `${e.MQTT_SHARE_GROUP}-${os.hostname().replace(/[^A-Za-z0-9_.:-]/g, '_')}`.slice(0, 128),
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    mqttSessionExpiry: e.MQTT_SESSION_EXPIRY,
    brokerAuthSecret: e.BROKER_AUTH_SECRET,
    redisUrl: e.REDIS_URL,
    redisChannel: e.REDIS_CHANNEL,
    metricsToken: e.METRICS_TOKEN,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    captcha: e.CAPTCHA === 'on',
    demo: e.DEMO ?? (e.DATABASE_URL ? 'off' : 'auto'),
    logLevel: e.LOG_LEVEL,
    sessionTtl: e.SESSION_TTL,
    sessionCacheTtl: e.SESSION_CACHE_TTL,
    loginLockout: e.LOGIN_LOCKOUT === 'on',
    responseCheck: e.RESPONSE_CHECK === 'on',
    telemetryRetentionDays: e.TELEMETRY_RETENTION_DAYS,
    operationLogRetentionDays: e.OPERATION_LOG_RETENTION_DAYS,
    alarmNoticeRetentionDays: e.ALARM_NOTICE_RETENTION_DAYS,
    deviceOfflineAfter: e.DEVICE_OFFLINE_AFTER,
    deviceRateLimit: e.DEVICE_RATE_LIMIT,
    trustProxy: e.TRUST_PROXY === 'on',
    apiRateLimit: e.API_RATE_LIMIT,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    alarmMailMinLevel: e.ALARM_MAIL_MIN_LEVEL,
    alarmMailInterval: e.ALARM_MAIL_INTERVAL,
    deviceAlarmLevel: e.DEVICE_ALARM_LEVEL,
    consoleUrl: e.CONSOLE_URL,
    weatherUrl: e.WEATHER_URL === 'off' ? undefined : e.WEATHER_URL,
    video:
      e.VIDEO_PROVIDER === 'ezviz'
        ? {
            kind: 'ezviz',
            baseUrl: e.EZVIZ_BASE_URL,
            appKey: e.EZVIZ_APP_KEY!,
            appSecret: e.EZVIZ_APP_SECRET!,
            mediaOrigins: e.EZVIZ_MEDIA_ORIGINS ?? platformMediaOrigins(e.EZVIZ_BASE_URL),
          }
        : { kind: 'simulated' },
    alarmNotify: {
      provider:
        e.ALARM_NOTIFY_PROVIDER === 'aliyun'
          ? {
              kind: 'aliyun',
              accessKeyId: e.ALIYUN_ACCESS_KEY_ID!,
              accessKeySecret: e.ALIYUN_ACCESS_KEY_SECRET!,
              signName: e.ALIYUN_SMS_SIGN_NAME!,
              smsTemplate: e.ALIYUN_SMS_TEMPLATE!,
              ttsTemplate: e.ALIYUN_TTS_TEMPLATE!,
              showNumber: e.ALIYUN_TTS_SHOW_NUMBER,
              smsUrl: e.ALIYUN_SMS_URL,
              voiceUrl: e.ALIYUN_VOICE_URL,
            }
          : { kind: 'simulated' },
      demo: e.ALARM_NOTIFY_DEMO === 'on',
      perDevice: e.ALARM_NOTIFY_PER_DEVICE,
      perNumber: e.ALARM_NOTIFY_PER_NUMBER,
      windowSeconds: e.ALARM_NOTIFY_WINDOW,
      attempts: e.ALARM_NOTIFY_ATTEMPTS,
      backoffSeconds: e.ALARM_NOTIFY_BACKOFF,
      deviceMinLevel: e.ALARM_PHONE_MIN_LEVEL,
    },
    mapTileUrl: e.MAP_TILE_URL?.url,
    mapTileOrigin: e.MAP_TILE_URL?.origin,
    mapTileAttribution: e.MAP_TILE_ATTRIBUTION,
    mapTileDatum: e.MAP_TILE_DATUM,
    carrier:
      e.CARRIER === 'onelink'
        ? {
            kind: 'onelink',
            whitelistMax: e.CARD_WHITELIST_MAX,
            baseUrl: e.ONELINK_BASE_URL!,
            appId: e.ONELINK_APP_ID!,
            password: e.ONELINK_PASSWORD!,
            ratePerSecond: e.ONELINK_RATE_LIMIT,
          }
        : { kind: 'simulated', whitelistMax: e.CARD_WHITELIST_MAX },
    carrierCacheTtl: e.CARRIER_CACHE_TTL,
    cardExpiryNoticeDays: e.CARD_EXPIRY_NOTICE_DAYS,
    payment:
      e.PAYMENT_PROVIDER === 'wechat'
        ? {
            kind: 'wechat',
            baseUrl: e.WECHAT_PAY_BASE_URL,
            appId: e.WECHAT_PAY_APP_ID!,
            mchId: e.WECHAT_PAY_MCH_ID!,
            serialNo: e.WECHAT_PAY_SERIAL_NO!,
            privateKeyFile: path.resolve(e.WECHAT_PAY_PRIVATE_KEY_FILE!),
            platformKeyFiles: platformKeyFiles(e.WECHAT_PAY_PLATFORM_CERT_FILE!).map((f) => ({ ...f, file: path.resolve(f.file) })),
            apiV3Key: e.WECHAT_PAY_API_V3_KEY!,
            notifyUrl: e.WECHAT_PAY_NOTIFY_URL!,
          }
        : { kind: 'simulated' },
    orderPayTimeout: e.ORDER_PAY_TIMEOUT,
    webDist: path.resolve(
      e.WEB_DIST ?? path.join(import.meta.dirname, '..', '..', 'web', 'dist'),
    ),
  };
}
