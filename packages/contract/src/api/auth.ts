import { captchaInfoSchema, loginBodySchema, loginResultSchema } from '../auth.js';
import { endpoint } from '../endpoint.js';
import { AUTHENTICATED, PUBLIC } from '../permissions.js';
import { noDataSchema } from './common.js';

const tags = ['auth'];

/** §1 login page: captcha, login, logout. */
export const authApi = {
  captcha: endpoint({
    method: 'GET',
    path: '/login/captchaInfo',
    permission: PUBLIC,
    tags,
    summary: 'A single-use captcha (SVG), valid for 2 minutes',
    data: captchaInfoSchema,
  }),
  login: endpoint({
    method: 'POST',
    path: '/user/login',
    permission: PUBLIC,
    audit: false,
    tags,
    summary: 'Log in; 5 failures from one address lock the account for 15 minutes',
    body: loginBodySchema,
    data: loginResultSchema,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/user/logout',
    permission: AUTHENTICATED,
    audit: false,
    tags,
    summary: 'End this session',
    data: noDataSchema,
  }),
};

