import { z } from 'zod';
import { captchaAudioQuerySchema, captchaInfoSchema, loginBodySchema, loginResultSchema } from '../auth.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { authRoutes } from '../routes/auth.js';
import { noDataSchema } from './common.js';

const tags = ['auth'];

/** The schemas of `authRoutes` (routes/auth.ts). */
export const authSchemas = {
  captcha: { tags, summary: 'A single-use captcha (SVG), valid for 2 minutes', data: captchaInfoSchema },
  captchaAudio: {
    tags,
    summary: 'The same captcha spoken, as a WAV file (English letters and digits); does not use it up',
    query: captchaAudioQuerySchema,
    data: z.null(),
  },
  login: {
    tags,
    summary: 'Log in; 5 failures from one address lock the account for 15 minutes',
    body: loginBodySchema,
    data: loginResultSchema,
  },
  logout: { tags, summary: 'End this session', data: noDataSchema },
} satisfies EndpointSchemaTable;
export const authApi = endpoints(authRoutes, authSchemas);

