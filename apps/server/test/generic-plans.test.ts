import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

/**
 * Unfiltered list pages are named statements that PostgreSQL may keep a generic plan for
 * (lib/sql.ts runPrepared, issue #14); a page with a filter value stays unnamed, planned for its
 * values. On PGlite the same requests must answer the same pages.
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const { ok } = apiAs(() => t, tokens);
let projectId: number;

beforeAll(async () => {
  t = await buildTestApp();
  tokens.admin = await t.login();
  const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
  projectId = (await ok('admin', 'POST', '/project/addproject', { name: 'Plans' })).id;
  await t.database.db.execute(sql`
    insert into devices (sn, name, type_id, owner_path, project_id)
    select 'GP-' || lpad(i::text, 3, '0'), 'Plan ' || i, ${typeId}, '/1/', case when i % 5 = 0 then ${projectId}::int end
    from generate_series(1, 60) i`);
});
afterAll(() => t.close());

/** What every pooled connection has prepared under a name (pg_prepared_statements is per session). */
async function namedStatements(): Promise<{ statement: string; generic_plans: number; custom_plans: number }[]> {
  const pool = (t.database.db as unknown as { $client: pg.Pool }).$client;
  const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
  try {
    const found = await Promise.all(
      clients.map((c) => c.query('select statement, generic_plans, custom_plans from pg_prepared_statements where from_sql = false')),
    );
    return found.flatMap((r) => r.rows);
  } finally {
    for (const c of clients) c.release();
  }
}

describe('list pages and generic plans', () => {
  it('reads an unfiltered page through a named statement with a generic plan, a filtered one planned per request', async () => {
    const first = await ok('admin', 'GET', '/device/list?limit=20');
    expect(first.items.map((d: { sn: string }) => d.sn).slice(0, 3)).toEqual(['GP-060', 'GP-059', 'GP-058']);
    for (let i = 0; i < 11; i++) expect(await ok('admin', 'GET', '/device/list?limit=20')).toEqual(first);
    // The cursor's next page, whose position is a bound value: named too.
    const second = await ok('admin', 'GET', `/device/list?limit=20&after=${encodeURIComponent(first.next)}`);
    expect(second.items[0].sn).toBe('GP-040');
    // A filter value: the project's 12 devices, newest first.
    for (let i = 0; i < 7; i++) {
      const inProject = await ok('admin', 'GET', `/device/list?limit=20&projectId=${projectId}`);
      expect(inProject.items.map((d: { sn: string }) => d.sn)).toEqual(
        [60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5].map((i) => `GP-${String(i).padStart(3, '0')}`),
      );
    }
    if (t.database.engine !== 'postgres') return;
    const named = await namedStatements();
    const page = named.filter((s) => s.statement.includes('from "devices"') && / limit 21\)/.test(s.statement));
    // One page statement without a cursor, one with it (after: its position bound).
    const cursor = /\(\$\d+::timestamptz, \$\d+\)/;
    const plain = page.filter((s) => !cursor.test(s.statement));
    expect(plain.length).toBeGreaterThan(0);
    expect(page.filter((s) => cursor.test(s.statement)).length).toBeGreaterThan(0);
    // Run twelve times, mostly on one connection (the pool lends the last one returned).
    expect(Math.max(...plain.map((s) => Number(s.generic_plans)))).toBeGreaterThan(0);
    // The project filter's page was never a named statement.
    expect(named.filter((s) => s.statement.includes('"project_id" = $'))).toEqual([]);
  });

  it('keeps a page size the pager does not offer unnamed', async () => {
    const res = await ok('admin', 'GET', '/device/list?limit=7');
    expect(res.items).toHaveLength(7);
    if (t.database.engine !== 'postgres') return;
    expect((await namedStatements()).filter((s) => s.statement.includes(' limit 8'))).toEqual([]);
  });
});
