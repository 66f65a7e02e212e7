import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { devices, projects } from '../src/db/schema/index.js';
import { flatRows } from '../src/lib/sql.js';
import { customPlanPool } from '../src/db/client.js';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

/**
 * List queries as lib/sql.ts runs them (issue #14). Unfiltered list pages, and a project's
 * device page, are named statements that PostgreSQL may keep a generic plan for (lib/sql.ts
 * runPrepared); a page with another filter value is named in the custom-plan pool, planned for
 * its values at every execution. On PGlite the same requests must answer the same pages.
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

/**
 * What every pooled connection has prepared under a name (pg_prepared_statements is per session):
 * of the main pool, or of the custom-plan pool (`custom`).
 */
async function namedStatements(custom = false): Promise<{ statement: string; generic_plans: number; custom_plans: number }[]> {
  const pool = custom ? customPlanPool(t.database.db)! : (t.database.db as unknown as { $client: pg.Pool }).$client;
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

/**
 * Moves the devices' list counter, as any change to the registry does: a device page asked again
 * is then read by its own statement, not by the ids it had (lib/keyset.ts remembered pages).
 */
const registryChanged = () => t.database.db.execute(sql`update list_versions set version = version + 1 where name = 'devices'`);

describe('list pages and generic plans', () => {
  it("reads an unfiltered page and a project's page through named statements with a generic plan", async () => {
    const first = await ok('admin', 'GET', '/device/list?limit=20');
    expect(first.items.map((d: { sn: string }) => d.sn).slice(0, 3)).toEqual(['GP-060', 'GP-059', 'GP-058']);
    for (let i = 0; i < 11; i++) {
      await registryChanged();
      expect(await ok('admin', 'GET', '/device/list?limit=20')).toEqual(first);
    }
    // The cursor's next page, whose position is a bound value: named too.
    const second = await ok('admin', 'GET', `/device/list?limit=20&after=${encodeURIComponent(first.next)}`);
    expect(second.items[0].sn).toBe('GP-040');
    // A filter value: the project's 12 devices, newest first. Its index gives a project's devices
    // in order whatever the project: one plan for every value, named too.
    for (let i = 0; i < 12; i++) {
      await registryChanged();
      const inProject = await ok('admin', 'GET', `/device/list?limit=20&projectId=${projectId}`);
      expect(inProject.items.map((d: { sn: string }) => d.sn)).toEqual(
        [60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5].map((i) => `GP-${String(i).padStart(3, '0')}`),
      );
    }
    if (t.database.engine !== 'postgres') return;
    const named = await namedStatements();
    // The first page's devices subquery: `limit 21 offset 0)` (its offset is written in too).
    const page = named.filter((s) => s.statement.includes('from "devices"') && / limit 21( offset 0)?\)/.test(s.statement));
    // One page statement without a cursor, one with it (after: its position bound).
    const cursor = /\(\$\d+::timestamptz, \$\d+\)/;
    const plain = page.filter((s) => !cursor.test(s.statement));
    expect(plain.length).toBeGreaterThan(0);
    expect(page.filter((s) => cursor.test(s.statement)).length).toBeGreaterThan(0);
    // Run twelve times, mostly on one connection (the pool lends the last one returned).
    expect(Math.max(...plain.map((s) => Number(s.generic_plans)))).toBeGreaterThan(0);
    const inProject = named.filter((s) => s.statement.includes('"devices"."project_id" = $'));
    expect(inProject.length).toBeGreaterThan(0);
    expect(Math.max(...inProject.map((s) => Number(s.generic_plans)))).toBeGreaterThan(0);
  });

  it('plans a filter whose best plan depends on its value at each execution: a type, a text in a project', async () => {
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    for (let i = 0; i < 7; i++) {
      await registryChanged();
      expect((await ok('admin', 'GET', `/device/list?limit=20&typeId=${typeId}`)).items[0].sn).toBe('GP-060');
      const found = await ok('admin', 'GET', `/device/list?limit=20&projectId=${projectId}&q=gp-05`);
      expect(found.items.map((d: { sn: string }) => d.sn)).toEqual(['GP-055', 'GP-050']);
    }
    if (t.database.engine !== 'postgres') return;
    // A type's devices (a type of 50,000 beside one of 3) and a text search (a few matches or
    // thousands) are named in the custom-plan pool only: parsed once per connection, planned for
    // each value, never with a generic plan.
    const skewed = (s: { statement: string }) => s.statement.includes('"devices"."type_id" = $') || s.statement.includes('like $');
    expect((await namedStatements()).filter(skewed)).toEqual([]);
    const custom = (await namedStatements(true)).filter(skewed);
    expect(custom.length).toBeGreaterThan(0);
    expect(Math.max(...custom.map((s) => Number(s.custom_plans)))).toBeGreaterThan(5);
    expect(custom.map((s) => Number(s.generic_plans))).toEqual(custom.map(() => 0));
  });

  it('writes a state and a level into the alarm page, which keeps it named; a device filter is bound', async () => {
    for (const q of ['state=untreated&level=2', 'state=processed&level=2']) {
      expect(await ok('admin', 'GET', `/device/alarmlist?limit=20&${q}`)).toMatchObject({ total: 0, exact: true, items: [] });
    }
    expect(await ok('admin', 'GET', '/device/alarmlist?limit=20&state=untreated&device=GP-00')).toMatchObject({ total: 0, items: [] });
    if (t.database.engine !== 'postgres') return;
    const named = (await namedStatements()).map((s) => s.statement).filter((s) => s.includes('from "alarms"'));
    expect(named.filter((s) => s.includes(`"alarms"."state" = 'untreated'`) && s.includes('"alarms"."level" = 2'))).not.toEqual([]);
    expect(named.filter((s) => s.includes(`"alarms"."state" = 'processed'`))).not.toEqual([]);
    expect(named.filter((s) => s.includes('ilike'))).toEqual([]);
  });

  it('keeps a page size the pager does not offer unnamed', async () => {
    const res = await ok('admin', 'GET', '/device/list?limit=7');
    expect(res.items).toHaveLength(7);
    if (t.database.engine !== 'postgres') return;
    expect((await namedStatements()).filter((s) => s.statement.includes(' limit 8'))).toEqual([]);
  });
});

describe('rows of a prepared list query', () => {
  it('maps them as drizzle does: columns decoded by their type, SQL by its decoder, nulls kept', async () => {
    const db = t.database.db;
    await db.update(devices).set({ reportedInfo: { soc: 81, mode: 'eco' }, lng: 113.25 }).where(eq(devices.sn, 'GP-005'));
    const query = db
      .select({
        id: devices.id,
        sn: devices.sn,
        createdAt: devices.createdAt,
        reportedInfo: devices.reportedInfo,
        lng: devices.lng,
        projectName: projects.name,
        twice: sql<number>`${devices.id} * 2`.mapWith(Number),
        text: sql<string>`'x' || ${devices.sn}`,
      })
      .from(devices)
      .leftJoin(projects, eq(projects.id, devices.projectId))
      .where(sql`${devices.sn} like ${sql.placeholder('like')}`)
      .orderBy(asc(devices.sn));
    const prepared = query.prepare('');
    const fast = flatRows(prepared);
    // On node-postgres it runs its own mapper; on PGlite drizzle's.
    expect(fast !== prepared).toBe(t.database.engine === 'postgres');
    const rows = await fast.execute({ like: 'GP-00%' });
    expect(rows).toEqual(await prepared.execute({ like: 'GP-00%' }));
    expect(rows).toHaveLength(9);
    const five = rows.find((r) => r.sn === 'GP-005')!;
    expect(five.createdAt).toBeInstanceOf(Date);
    expect(five).toMatchObject({ reportedInfo: { soc: 81, mode: 'eco' }, lng: 113.25, projectName: 'Plans', twice: five.id * 2, text: 'xGP-005' });
    expect(rows.find((r) => r.sn === 'GP-001')).toMatchObject({ projectName: null, lng: null, reportedInfo: null });
  });
});
