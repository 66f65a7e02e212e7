import type { FastifyBaseLogger } from 'fastify';

/** What the timers need of db/leader.ts's Leadership. */
export interface Leading {
  readonly leading: boolean;
  onChange(listener: (leading: boolean) => void): () => void;
}

/** A job that runs on the leading instance only (decision 0038): started when it leads, stopped when it no longer does. */
export interface LeaderJob {
  name: string;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/**
 * Starts the jobs while this instance leads and stops them when it stops leading, one change at
 * a time (a job is never started twice nor stopped before its start ended). Returns the stop of
 * all (app close) and a wait for the changes under way.
 */
export function whileLeading(
  leadership: Leading,
  log: Pick<FastifyBaseLogger, 'error'>,
  jobs: LeaderJob[],
): { settled(): Promise<void>; stop(): Promise<void> } {
  let running = false;
  let chain: Promise<void> = Promise.resolve();
  const apply = (want: boolean) => {
    chain = chain.then(async () => {
      if (want === running) return;
      running = want;
      for (const job of jobs) {
        try {
          await (want ? job.start() : job.stop());
        } catch (err) {
          log.error({ err, job: job.name }, want ? 'leader job did not start' : 'leader job did not stop');
        }
      }
    });
    return chain;
  };
  const off = leadership.onChange((leading) => void apply(leading));
  if (leadership.leading) void apply(true);
  return {
    settled: () => chain,
    async stop() {
      off();
      await apply(false);
    },
  };
}
