import type { authSchemas } from '../api/auth.js';
import { AUTHENTICATED, PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/** §1 login page: captcha, login, logout. */
export const authRoutes = routes<typeof authSchemas>()({
  captcha: { method: 'GET', path: '/login/captchaInfo', permission: PUBLIC },
  // The same challenge spoken (WAV), for who cannot read the image.
  captchaAudio: { method: 'GET', path: '/login/captchaAudio', permission: PUBLIC, audit: false, kind: 'file' },
  login: { method: 'POST', path: '/user/login', permission: PUBLIC, audit: false },
  logout: { method: 'POST', path: '/user/logout', permission: AUTHENTICATED, audit: false },
});
