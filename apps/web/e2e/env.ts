/** Constants shared by the Playwright config and the specs. */
export const ADMIN_PASSWORD = 'e2e-admin-pass';
/**
 * E2E_PORT moves both servers (main, main + 1) so several runs can share a machine; main + 2 is
 * a server a spec starts itself (device-video-hls: another video provider).
 */
const base = Number(process.env.E2E_PORT ?? 18181);
export const PORTS = { main: base, captcha: base + 1, own: base + 2 } as const;
export const CAPTCHA_URL = `http://127.0.0.1:${PORTS.captcha}`;
