import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** One part the console needs to serve: resolves when reachable, throws (or times out) when not. */
export type ReadinessCheck = () => Promise<unknown>;

/** What a part may take to answer a readiness probe before it counts as down. */
const CHECK_TIMEOUT_MS = 2000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Parts `/readyz` checks by name (the database from the start; main.ts adds the broker). */
    readiness: Map<string, ReadinessCheck>;
  }
}

const within = (check: ReadinessCheck) =>
  Promise.race([
    check(),
    new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS).unref()),
  ]);

/**
 * Probes for load balancers and orchestrators, outside `/api/v1` and without a session (they
 * reveal no data): `/healthz` says the process answers; `/readyz` asks every registered part
 * (database, broker, Redis when used) and answers 503 naming what is down, so an instance that
 * lost its database leaves the pool instead of answering errors. It also says whether this
 * instance leads (`leader`).
 */
export const healthPlugin = fp(async (app: FastifyInstance, opts: { checks: Record<string, ReadinessCheck>; leading?: () => boolean }) => {
  app.decorate('readiness', new Map(Object.entries(opts.checks)));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const results = await Promise.all(
      [...app.readiness].map(async ([name, check]) => {
        try {
          await within(check);
          return [name, 'ok'] as const;
        } catch (err) {
          app.log.warn({ err, part: name }, 'readiness check failed');
          return [name, (err as Error).message || 'down'] as const;
        }
      }),
    );
    const ready = results.every(([, r]) => r === 'ok');
    // `leader`: this instance runs the once-only timers (decision 0038); not a condition of readiness.
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results), ...(opts.leading ? { leader: opts.leading() } : {}) });
  });
});
