/** Constants shared by the Playwright config and the specs. */
export const ADMIN_PASSWORD = 'e2e-admin-pass';
/**
 * Each Playwright worker has servers of its own, so that specs running at once never see each
 * other's rows: worker i (TEST_PARALLEL_INDEX, set before a worker loads the config) uses
 * E2E_PORT + 3i (main), + 1 (captcha on) and + 2 (a server a spec starts itself:
 * device-video-hls, another video provider). E2E_PORT moves them all, so that several runs can
 * share a machine.
 */
const base = Number(process.env.E2E_PORT ?? 18181);
/** Workers at once (E2E_WORKERS, default 2): a spec mostly waits on its browser and server. */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
export const portsOf = (worker: number) => ({ main: base + 3 * worker, captcha: base + 3 * worker + 1, own: base + 3 * worker + 2 }) as const;
export const PORTS = portsOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const CAPTCHA_URL = `http://127.0.0.1:${PORTS.captcha}`;
