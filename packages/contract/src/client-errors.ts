import { z } from 'zod';
import { CLIENT_ERROR_KINDS } from './enums.js';
import { CLIENT_ERROR_LIMITS as L } from './limits.js';
import { afterQuerySchema, isoDateTimeSchema, pageQuerySchema } from './envelope.js';

/**
 * An error the console hit in a browser (issue #39, §9 "error log collected in production"): what
 * failed, where and in which build — no user, no address, no query string (the server keeps the
 * route's path only and takes the browser from its User-Agent header).
 */
export const clientErrorReportSchema = z.object({
  kind: z.enum(CLIENT_ERROR_KINDS),
  message: z.string().max(L.message),
  stack: z.string().max(L.stack).default(''),
  route: z.string().max(L.route),
  version: z.string().max(L.version),
});
export type ClientErrorReport = z.input<typeof clientErrorReportSchema>;

export const clientErrorQuerySchema = pageQuerySchema.extend({
  kind: z.enum(CLIENT_ERROR_KINDS).optional(),
  /** Words of the message, any case. */
  q: z.string().trim().max(100).optional(),
  /** A route prefix (`/device`). */
  route: z.string().trim().max(L.route).optional(),
  version: z.string().trim().max(L.version).optional(),
  from: isoDateTimeSchema.optional(),
  to: isoDateTimeSchema.optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
  after: afterQuerySchema,
});

export const clientErrorDtoSchema = z.object({
  id: z.number().int(),
  kind: z.enum(CLIENT_ERROR_KINDS),
  message: z.string(),
  stack: z.string(),
  route: z.string(),
  version: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
}).meta({ id: 'ClientError' });
export type ClientErrorDto = z.infer<typeof clientErrorDtoSchema>;
