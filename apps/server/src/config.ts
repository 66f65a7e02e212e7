import path from 'node:path';
import { z } from 'zod';

/**
 * The one place the environment is read. Every variable is validated here; a bad value stops
 * start-up with a message that names the variable (see README "Configuration").
 */
const onOff = z.enum(['on', 'off']);

const durationSeconds = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'a duration such as 3600, 30m, 12h or 7d')
  .transform((v) => {
    const n = Number.parseInt(v, 10);
    const unit = v.trim().slice(-1);
    const mult = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86400 : 1;
    return n * mult;
  })
  .refine((s) => s >= 60, 'at least 60 seconds');

const port = z.coerce.number().int().min(0).max(65535);

const urlWith = (schemes: string[]) =>
  z
    .string()
    .url()
    .refine((u) => schemes.some((s) => u.startsWith(`${s}://`)), `a ${schemes.join('/')}:// URL`);

const envSchema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlWith(['postgres', 'postgresql']).optional(),
  MQTT_PORT: port.default(1883),
  MQTT_URL: urlWith(['mqtt', 'mqtts', 'ws', 'wss', 'tcp']).optional(),
  REDIS_URL: urlWith(['redis', 'rediss']).optional(),
  ADMIN_USERNAME: z.string().trim().min(1).max(64).default('admin'),
  ADMIN_PASSWORD: z.string().min(6, 'at least 6 characters').max(128).optional(),
  CAPTCHA: onOff.default('on'),
  DEMO: onOff.default('off'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_TTL: durationSeconds.default(12 * 3600),
  LOGIN_LOCKOUT: onOff.default('on'),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: onOff.default('off'),
  API_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(600),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  mqttPort: number;
  mqttUrl?: string;
  redisUrl?: string;
  adminUsername: string;
  adminPassword?: string;
  captcha: boolean;
  demo: boolean;
  logLevel: string;
  /** Idle lifetime of a session in seconds; every use slides it forward. */
  sessionTtl: number;
  /** Lock an account for 15 minutes after 5 failed logins from one address. */
  loginLockout: boolean;
  /** Folder of the built web console; defaults to apps/web/dist. */
  webDist: string;
  /** Take the client address from X-Forwarded-For (only behind a trusted reverse proxy). */
  trustProxy: boolean;
  /** Requests a minute one session may make to authenticated routes; 0 turns the limit off. */
  apiRateLimit: number;
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
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL,
    redisUrl: e.REDIS_URL,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    captcha: e.CAPTCHA === 'on',
    demo: e.DEMO === 'on',
    logLevel: e.LOG_LEVEL,
    sessionTtl: e.SESSION_TTL,
    loginLockout: e.LOGIN_LOCKOUT === 'on',
    trustProxy: e.TRUST_PROXY === 'on',
    apiRateLimit: e.API_RATE_LIMIT,
    webDist: path.resolve(
      e.WEB_DIST ?? path.join(import.meta.dirname, '..', '..', 'web', 'dist'),
    ),
  };
}
