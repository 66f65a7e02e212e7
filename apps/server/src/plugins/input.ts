import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode } from '@iot/contract';
import { AppError } from '../lib/errors.js';
import { fieldOf, findHostile } from '../lib/hostile.js';

/**
 * Refuses, before any schema or service sees them, inputs PostgreSQL cannot store: a NUL byte or a
 * lone UTF-16 surrogate in any string or key of the path parameters, the query or the JSON body
 * (PostgreSQL text cannot hold \u0000, jsonb refuses a lone surrogate), and absurdly nested bodies.
 * Answers 40000 naming the field, like schema validation.
 */
export const inputPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (req) => {
    for (const [source, value] of [['params', req.params], ['query', req.query], ['body', req.body]] as const) {
      const hostile = findHostile(value);
      if (!hostile) continue;
      const field = fieldOf(hostile.path) || source;
      throw new AppError(
        ErrorCode.VALIDATION,
        hostile.problem === 'nul'
          ? `${field}: must not contain a NUL character`
          : hostile.problem === 'surrogate'
            ? `${field}: must be valid Unicode (a lone surrogate)`
            : `${field}: nested too deeply`,
        { field },
      );
    }
  });
});
