import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { Retention } from '../src/lib/retention.js';
import { pruneOperationLogs } from '../src/modules/audit/audit.repo.js';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

const DAY = 86_400_000;
const silent = { info() {}, error() {} } as never;

/** OPERATION_LOG_RETENTION_DAYS: old operation logs are deleted in batches, from the created index. */
describe('operation log retention', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const { ok } = apiAs(() => t, tok);
  const rows = async <R>(q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as unknown as { rows: R[] }).rows;
  const count = async () => (await rows<{ n: number }>(sql`select count(*)::int as n from operation_logs`))[0]!.n;
  /** `n` rows written `daysAgo` days before `now`. */
  const insertAt = (n: number, now: number, daysAgo: number) =>
    t.database.db.execute(sql`
      insert into operation_logs (username, user_path, role, action, entity, result, created_at)
      select 'admin', '/1/', 'SUPERADMIN', 'user.edit', 'user', 'success', ${new Date(now - daysAgo * DAY).toISOString()}::timestamptz
      from generate_series(1, ${n})`);

  beforeAll(async () => {
    t = await buildTestApp({ OPERATION_LOG_RETENTION_DAYS: '30' });
    tok.admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is read from OPERATION_LOG_RETENTION_DAYS (default 365), a bad value named', () => {
    expect(t.config.operationLogRetentionDays).toBe(30);
    expect(loadConfig({}).operationLogRetentionDays).toBe(365);
    expect(() => loadConfig({ OPERATION_LOG_RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ OPERATION_LOG_RETENTION_DAYS: 'forever' })).toThrow(/OPERATION_LOG_RETENTION_DAYS/);
  });

  it('deletes the rows past the retention in batches and keeps the rest, the list still answering', async () => {
    await t.database.db.execute(sql`delete from operation_logs`);
    const now = Date.now();
    await insertAt(23, now, 400);
    await insertAt(4, now, 31);
    await insertAt(5, now, 29);
    await insertAt(6, now, 1);
    const retention = new Retention(t.database.db, silent, { name: 'operation log', days: 30, batch: 7, prune: pruneOperationLogs });
    // 27 old rows in batches of 7: four batches, the last one short.
    expect(await retention.run(now)).toBe(27);
    expect(await count()).toBe(11);
    const oldest = await rows<{ at: string }>(sql`select min(created_at)::text as at from operation_logs`);
    expect(new Date(oldest[0]!.at).getTime()).toBeGreaterThanOrEqual(now - 30 * DAY);
    // Nothing left to do: a second run deletes nothing.
    expect(await retention.run(now)).toBe(0);
    const page = await ok('admin', 'GET', '/logs/list?limit=50');
    expect(page.total).toBe(await count());
  });

  it('a full batch ends exactly on the last old row', async () => {
    await t.database.db.execute(sql`delete from operation_logs`);
    const now = Date.now();
    await insertAt(10, now, 100);
    await insertAt(2, now, 2);
    expect(await new Retention(t.database.db, silent, { name: 'operation log', days: 30, batch: 5, prune: pruneOperationLogs }).run(now)).toBe(10);
    expect(await count()).toBe(2);
  });

  it('reads a batch from the (created_at, id) index, never a scan of the table', async () => {
    await t.database.db.transaction(async (tx) => {
      // The table is tiny here: with whole-table and bitmap scans priced out, the plan shows that
      // the index alone hands over the oldest rows in order (no sort of every old row).
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local enable_bitmapscan = off`);
      const plan = await tx.execute(
        sql`explain select id from operation_logs where created_at < now() - interval '30 days' order by created_at, id limit 5000`,
      );
      const text = (plan as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n');
      expect(text).toContain('operation_logs_created_idx');
      expect(text).not.toMatch(/Sort/);
    });
  });
});
