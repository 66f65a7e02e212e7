import { CLIENT_ERROR_LIMITS as L, clientErrorRoutes, type ClientErrorKind } from '@iot/contract/plain';
import { api } from './api';

/** The build (`package.json` version and commit, set by vite.config.ts); `dev` under Vitest. */
const VERSION = String(import.meta.env.VITE_APP_VERSION ?? 'dev').slice(0, L.version);
/** A code chunk that did not load (a deploy replaced it, the network dropped). */
const CHUNK = /dynamically imported module|Importing a module script failed|Loading (CSS )?chunk/i;

let sent = 0;
const seen = new Set<string>();

/**
 * Tells the server about an error this page hit (issue #39): what, where (the path, never the
 * query) and in which build — no user data. At most CLIENT_ERROR_LIMITS.perPage reports a page
 * load, each message once; a report that fails is dropped, never reported itself.
 */
export function reportClientError(kind: ClientErrorKind, message: string, stack = ''): void {
  const k: ClientErrorKind = kind !== 'chunk' && CHUNK.test(message) ? 'chunk' : kind;
  const key = `${k}:${message}`;
  if (sent >= L.perPage || seen.has(key)) return;
  seen.add(key);
  sent++;
  const body = { kind: k, message: message.slice(0, L.message), stack: stack.slice(0, L.stack), route: location.pathname.slice(0, L.route), version: VERSION };
  api(clientErrorRoutes.report, { body, silent: true }).catch(() => undefined);
}

const describe = (value: unknown): { message: string; stack: string } =>
  value instanceof Error ? { message: `${value.name}: ${value.message}`, stack: value.stack ?? '' } : { message: String(value), stack: '' };

/** Listens for uncaught errors, unhandled rejections and failed chunk loads, once. */
export function installErrorReporting(): void {
  window.addEventListener('error', (e) => {
    const { message, stack } = e.error !== undefined && e.error !== null ? describe(e.error) : { message: e.message, stack: '' };
    if (message) reportClientError('error', message, stack);
  });
  window.addEventListener('unhandledrejection', (e) => {
    const { message, stack } = describe(e.reason);
    reportClientError('rejection', message, stack);
  });
  // Vite's own event when a preloaded module or style fails.
  window.addEventListener('vite:preloadError', (e) => {
    const { message, stack } = describe((e as Event & { payload?: unknown }).payload);
    reportClientError('chunk', message, stack);
  });
}
