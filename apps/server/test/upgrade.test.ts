import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { createTestPostgres } from './helpers.js';

/**
 * Upgrades: a database made by an earlier release, holding data, is opened by this one and
 * migrated. A migration that only ever ran on empty tables can fail on a deployed console's data
 * (a pending trigger event, a NOT NULL without a value), so each data-moving migration is run here
 * on rows written under the schema before it.
 */
const committed = path.join(import.meta.dirname, '../src/db/migrations');

/** The committed migrations up to (not including) `tag`'s, as a folder drizzle's migrator reads. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-migrations-'));
  fs.cpSync(committed, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at, `no migration ${tag}`).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** One database, opened (and migrated) again by each `open`: a data folder for PGlite, a database for PostgreSQL. */
async function upgradable() {
  const cleanups: (() => Promise<void>)[] = [];
  let where: { dataDir: string } | { databaseUrl: string };
  if (process.env.TEST_DB === 'postgres') {
    const created = await createTestPostgres('iot_upgrade');
    where = { databaseUrl: created.url };
    cleanups.push(created.drop);
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-upgrade-'));
    where = { dataDir };
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  }
  return {
    open: (migrationsFolder?: string): Promise<Database> => openDatabase({ ...where, migrationsFolder }),
    cleanup: async () => {
      for (const c of cleanups.reverse()) await c();
    },
  };
}

const rowsOf = async <R>(db: Database['db'], query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: R[] }).rows;

describe('upgrading a database that holds data', () => {
  const done: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const d of done) await d();
  });

  it('0030: each alarm gets its device’s owner and project; later moves and alarms follow', async () => {
    const target = await upgradable();
    done.push(target.cleanup);
    const before = migrationsBefore('0030_alarm_scope');
    done.push(async () => fs.rmSync(before, { recursive: true, force: true }));
    const older = await target.open(before);
    // One statement per call: PGlite runs one per extended-protocol query.
    for (const statement of [
      sql`insert into roles (name, identification) values ('Agent', 'AGENT_UPGRADE')`,
      sql`insert into users (id, username, password_hash, role_id, path)
        select 70, 'agent-upgrade', 'x', id, '/1/70/' from roles where identification = 'AGENT_UPGRADE'`,
      sql`insert into device_types (id, code, name) values (900, 'UPG', 'Upgrade')`,
      sql`insert into projects (id, name, owner_id, owner_path) values (800, 'Upgrade site', 70, '/1/70/')`,
      sql`insert into devices (id, sn, name, type_id, owner_path, project_id) values
        (9001, 'UPG-1', 'In the agent''s project', 900, '/1/70/', 800),
        (9002, 'UPG-2', 'The administrator''s', 900, '/1/', null)`,
      sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at)
        select d, 'r' || k, 'rule', '01010001', 2, now() - (k || ' minutes')::interval
        from unnest(array[9001, 9002]) d, generate_series(1, 3) k`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const db = upgraded.db;
    const scopes = () =>
      rowsOf<{ device_id: number; owner_path: string; project_id: number | null; n: number }>(
        db,
        sql`select device_id, owner_path, project_id, count(*)::int as n from alarms group by 1, 2, 3 order by 1`,
      );
    expect(await scopes()).toEqual([
      { device_id: 9001, owner_path: '/1/70/', project_id: 800, n: 3 },
      { device_id: 9002, owner_path: '/1/', project_id: null, n: 3 },
    ]);
    // The administrator's device goes into the agent's project: its alarms too, and a new one.
    await db.execute(sql`update devices set project_id = 800 where id = 9002`);
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at)
      values (9002, 'new', 'rule', '01010001', 3, now())`);
    expect(await scopes()).toEqual([
      { device_id: 9001, owner_path: '/1/70/', project_id: 800, n: 3 },
      { device_id: 9002, owner_path: '/1/', project_id: 800, n: 4 },
    ]);
    await upgraded.close();
  });
});
