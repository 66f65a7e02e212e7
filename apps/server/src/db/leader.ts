import type { Client } from 'pg';

/**
 * Which instance runs the once-only timers (decision 0038): the holder of a PostgreSQL session
 * advisory lock, taken on a connection of its own. The others try again every `retryMs`; the
 * holder checks its connection as often and steps down the moment it fails or closes, and
 * PostgreSQL releases the lock when that session ends, so another instance takes over within
 * about two periods (the one that lost it waits three before trying again). PGlite is one process's database: that process always leads.
 */
export interface Leadership {
  /** True while this process holds the lock. */
  readonly leading: boolean;
  /** Told every change (true: this process now leads); returns the unsubscribe. */
  onChange(listener: (leading: boolean) => void): () => void;
  /** Releases the lock (the session ends) and stops trying. */
  stop(): Promise<void>;
}

export interface LeaderOptions {
  /** How often a follower tries the lock and the leader checks its connection (default 3 s). */
  retryMs?: number;
  /** Told each change, for the log. */
  log?: (leading: boolean, why: string) => void;
}

/** The same lock key for one name on every instance (hashtext is stable across servers). */
const TRY = 'select pg_try_advisory_lock(hashtext($1)) as got';

export const alwaysLeading = (): Leadership => ({
  leading: true,
  onChange: () => () => {},
  stop: async () => {},
});

/** Resolves after the first attempt: a lone instance leads before its timers start. */
export async function leadPostgres(url: string, name: string, opts: LeaderOptions = {}): Promise<Leadership> {
  const retryMs = opts.retryMs ?? 3000;
  const listeners = new Set<(leading: boolean) => void>();
  let client: Client | undefined;
  let leading = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  /** An instance that just lost the lock leaves the next tries to the others (its link may be the trouble). */
  let holdBackUntil = 0;
  const set = (now: boolean, why: string) => {
    if (now === leading) return;
    leading = now;
    if (!now) holdBackUntil = Date.now() + 3 * retryMs;
    opts.log?.(now, why);
    for (const l of listeners) l(now);
  };
  const drop = (c: Client | undefined, why: string) => {
    if (client === c) client = undefined;
    set(false, why);
    c?.end().catch(() => {});
  };
  const connect = async () => {
    const { default: pg } = await import('pg');
    // Named for pg_stat_activity: an operator sees which instance leads (and a test can kill it).
    const c = new pg.Client({
      connectionString: url,
      application_name: `iot-console leader ${name}`,
      keepAlive: true,
      // A check that does not come back is a lost leadership, not a hung timer (a loaded
      // server's slow answer is not: twice the period, at least 5 s).
      query_timeout: Math.max(5000, 2 * retryMs),
    });
    c.on('error', () => drop(c, 'leader connection failed'));
    c.on('end', () => drop(c, 'leader connection closed'));
    await c.connect();
    return c;
  };
  const attempt = async () => {
    if (!leading && Date.now() < holdBackUntil) return;
    try {
      if (!client) client = await connect();
      const c = client;
      if (leading) {
        await c.query('select 1');
        return;
      }
      const got = (await c.query<{ got: boolean }>(TRY, [name])).rows[0]?.got === true;
      if (stopped) return;
      set(got, 'advisory lock taken');
    } catch {
      drop(client, 'leader connection failed');
    }
  };
  const tick = async () => {
    await attempt();
    if (!stopped) {
      timer = setTimeout(() => void tick(), retryMs);
      timer.unref();
    }
  };
  await tick();

  return {
    get leading() {
      return leading;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const c = client;
      client = undefined;
      set(false, 'stopped');
      listeners.clear();
      // Ending the session releases the lock at once.
      await c?.end().catch(() => {});
    },
  };
}
