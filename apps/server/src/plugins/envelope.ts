import { UPLOAD_MAX_MB } from '../lib/sheet.js';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode, SUCCESS, httpStatusFor, type Envelope } from '@iot/contract';
import { conflictFromDb, timeoutFromDb } from '../lib/db-errors.js';
import { AppError } from '../lib/errors.js';
import { API_PREFIX } from './auth.js';

/** Success envelope. */
export function ok<T>(data: T, message = 'success'): Envelope<T> & { code: typeof SUCCESS } {
  return { code: SUCCESS, message, data };
}

function send(reply: FastifyReply, code: number, message: string, data: unknown = null) {
  return reply.status(httpStatusFor(code)).send({ code, message, data });
}

/**
 * Turns every failure into the `{code, message, data}` envelope with the mirrored HTTP status.
 * Validation errors name the field; unexpected errors are logged and answered without details.
 * Unknown routes are answered by the web plugin (API 404 envelope, or the console's index.html).
 */
export const envelopePlugin = fp(async (app: FastifyInstance) => {
  // A missing field reads "username: required", not zod's type-mismatch wording.
  z.config({
    customError: (issue) =>
      issue.code === 'invalid_type' && issue.input === undefined ? 'required' : undefined,
  });

  // API answers carry personal data: no browser or proxy keeps one, downloads and errors included
  // (set before any handler, so every answer of the prefix has it). The console's files keep theirs.
  app.addHook('onRequest', (req, reply, done) => {
    const url = req.url;
    if (url.startsWith(API_PREFIX) && (url.length === API_PREFIX.length || url[API_PREFIX.length] === '/' || url[API_PREFIX.length] === '?')) {
      reply.header('cache-control', 'no-store');
    }
    done();
  });

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) return send(reply, err.code, err.message, err.data);
    // A unique constraint that a concurrent request won: the documented 40900, not a 500.
    const duplicate = conflictFromDb(err);
    if (duplicate) return send(reply, duplicate.code, duplicate.message, duplicate.data);
    // A read stopped at the statement limit: the caller asked too much at once, not a 500.
    const timedOut = timeoutFromDb(err);
    if (timedOut) return send(reply, timedOut.code, timedOut.message, timedOut.data);

    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0]!;
      const field =
        first.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
        (first.params?.issue as { keys?: string[] } | undefined)?.keys?.[0] ||
        err.validationContext ||
        'body';
      return send(reply, ErrorCode.VALIDATION, `${field}: ${first.message}`, { field });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response failed its schema');
      return send(reply, ErrorCode.SERVER_ERROR, 'Internal server error');
    }
    if (err.statusCode === 429) {
      return send(reply, ErrorCode.RATE_LIMITED, 'Too many requests, please slow down', {
        retryAfter: Number(reply.getHeader('retry-after')) || 60,
      });
    }
    // Fastify's own client errors: malformed JSON, wrong content type, body too large.
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      if (err.code === 'FST_REQ_FILE_TOO_LARGE' || err.code === 'FST_FILES_LIMIT') {
        return send(reply, ErrorCode.VALIDATION, `file: one file of at most ${UPLOAD_MAX_MB} MB`, { field: 'file' });
      }
      const message =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body too large'
            : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'body: a JSON body is required'
              : 'body: malformed request';
      return send(reply, ErrorCode.VALIDATION, message, { field: 'body' });
    }
    // Anything else, database failures included: logged in full, answered without details.
    req.log.error({ err }, 'unhandled error');
    return send(reply, ErrorCode.SERVER_ERROR, 'Internal server error');
  });

});
