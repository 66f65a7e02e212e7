import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { createPartition } from '../src/telemetry/ingest.repo.js';
import { ruleKey } from '../src/telemetry/alarm.engine.js';
import { createTestPostgres } from './helpers.js';

/**
 * Upgrades: a database made by an earlier release, holding data, is opened by this one and
 * migrated. A migration that only ever ran on empty tables can fail on a deployed console's data
 * (a pending trigger event, a NOT NULL without a value), so each data-moving migration is run here
 * on rows written under the schema before it.
 */
const committed = path.join(import.meta.dirname, '../src/db/migrations');
/** The migration that adds the battery summary (device_battery, battery_energy_hour) with its backfill. */
const BATTERY_MIGRATION = '0047_battery_summary';

/**
 * The committed migrations up to (not including) `tag`'s, as a folder drizzle's migrator reads,
 * and how many they are.
 */
function migrationsBefore(tag: string): { folder: string; count: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-migrations-'));
  fs.cpSync(committed, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = tag === LATEST ? journal.entries.length : journal.entries.findIndex((e) => e.tag === tag);
  expect(at, `no migration ${tag}`).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return { folder: dir, count: at };
}

/** Every committed migration: a new install. */
const LATEST = 'latest';
/** The migrations the tests below start before, each a state an earlier release left. */
const TAGS = [
  '0030_alarm_scope',
  '0035_sample_identity',
  '0043_alarm_severity_scale',
  '0045_card_device_link',
  '0046_home_dashboard',
  BATTERY_MIGRATION,
  '0052_fleet_map',
  '0053_geo_fences',
  '0072_alarm_type',
  LATEST,
];
const usePg = process.env.TEST_DB === 'postgres';
const cleanups: (() => Promise<void>)[] = [];
/**
 * Each tag's state, made in one pass: a database migrated up to the first tag is copied, migrated
 * on to the next, copied… (PGlite: its closed data folder; PostgreSQL: a template database).
 * Migrating a new database for each test took 6–18 s a test on PGlite; a copy takes well under one.
 */
const states = new Map<string, string>();
const folders = new Map<string, { folder: string; count: number }>();

async function makeStates() {
  for (const tag of TAGS) folders.set(tag, migrationsBefore(tag));
  cleanups.push(async () => {
    for (const f of folders.values()) fs.rmSync(f.folder, { recursive: true, force: true });
  });
  const counts = TAGS.map((t) => folders.get(t)!.count);
  expect(counts, 'TAGS in the migrations\' order').toEqual([...counts].sort((a, b) => a - b));
  if (usePg) {
    const work = await createTestPostgres('iot_upgrade_work');
    cleanups.push(work.drop);
    const workName = new URL(work.url).pathname.slice(1);
    for (const tag of TAGS) {
      await (await openDatabase({ databaseUrl: work.url, migrationsFolder: folders.get(tag)!.folder })).close();
      const copy = await createTestPostgres('iot_upgrade_state', workName);
      cleanups.push(copy.drop);
      states.set(tag, new URL(copy.url).pathname.slice(1));
    }
  } else {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-upgrade-work-'));
    cleanups.push(async () => fs.rmSync(work, { recursive: true, force: true }));
    for (const tag of TAGS) {
      await (await openDatabase({ dataDir: work, migrationsFolder: folders.get(tag)!.folder })).close();
      const copy = path.join(work, '..', `${path.basename(work)}-${tag}`);
      fs.cpSync(path.join(work, 'pglite'), copy, { recursive: true });
      cleanups.push(async () => fs.rmSync(copy, { recursive: true, force: true }));
      states.set(tag, copy);
    }
  }
}

/**
 * A database as the release before `tag` left it: `older()` opens it with that release's
 * migrations (none left to run), `open()` with every committed one (the upgrade).
 */
async function restore(tag: string) {
  const state = states.get(tag);
  if (!state) throw new Error(`no state before ${tag}: add it to TAGS`);
  let where: { dataDir: string } | { databaseUrl: string };
  if (usePg) {
    const created = await createTestPostgres('iot_upgrade', state);
    where = { databaseUrl: created.url };
    cleanups.push(created.drop);
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-upgrade-'));
    fs.cpSync(state, path.join(dataDir, 'pglite'), { recursive: true });
    where = { dataDir };
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  }
  return {
    /** Opened with the release's own migrations, and checked to hold exactly those. */
    older: async (): Promise<Database> => {
      const { folder, count } = folders.get(tag)!;
      const database = await openDatabase({ ...where, migrationsFolder: folder });
      const [applied] = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(applied?.n, `the state before ${tag}`).toBe(count);
      return database;
    },
    open: (): Promise<Database> => openDatabase(where),
  };
}

const rowsOf = async <R>(db: Database['db'], query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: R[] }).rows;

describe('upgrading a database that holds data', { timeout: 120_000 }, () => {
  beforeAll(makeStates, 300_000);
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('0030: each alarm gets its device’s owner and project; later moves and alarms follow', async () => {
    const target = await restore('0030_alarm_scope');
    const older = await target.older();
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

  it('0072: each alarm gets its device’s type; a device given another type takes its alarms along', async () => {
    const target = await restore('0072_alarm_type');
    const older = await target.older();
    for (const statement of [
      sql`insert into device_types (id, code, name) values (901, 'UPGA', 'Type A'), (902, 'UPGB', 'Type B')`,
      sql`insert into devices (id, sn, name, type_id, owner_path) values (9011, 'UPG-A', 'A', 901, '/1/'), (9012, 'UPG-B', 'B', 902, '/1/')`,
      sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at)
        select d, 'r' || k, 'rule', '01010001', 2, now() - (k || ' minutes')::interval
        from unnest(array[9011, 9012]) d, generate_series(1, 2) k`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const db = upgraded.db;
    const types = () =>
      rowsOf<{ device_id: number; type_id: number; n: number }>(
        db,
        sql`select device_id, type_id, count(*)::int as n from alarms group by 1, 2 order by 1`,
      );
    expect(await types()).toEqual([
      { device_id: 9011, type_id: 901, n: 2 },
      { device_id: 9012, type_id: 902, n: 2 },
    ]);
    // Device A becomes a type B device: its alarms follow, and a new alarm has the new type.
    await db.execute(sql`update devices set type_id = 902 where id = 9011`);
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at)
      values (9011, 'new', 'rule', '01010001', 3, now())`);
    expect(await types()).toEqual([
      { device_id: 9011, type_id: 902, n: 3 },
      { device_id: 9012, type_id: 902, n: 2 },
    ]);
    await upgraded.close();
  });

  it('0035: telemetry and GPS fixes stored twice become one row per device and ts, values merged', async () => {
    const target = await restore('0035_sample_identity');
    const older = await target.older();
    const day = '2026-03-04';
    await createPartition(older.db, new Date(`${day}T00:00:00Z`));
    // What resent messages left before 0035: the same sample two or three times, copies of one
    // message, or messages of the same time with different values, in any arrival order; copies
    // written by one batch have the same received_at (10:03, the later one written last).
    for (const statement of [
      sql`insert into device_types (id, code, name) values (901, 'UPG35', 'Upgrade 0035')`,
      sql`insert into devices (id, sn, name, type_id, owner_path) values (9101, 'UPG35-1', 'Resent', 901, '/1/'), (9102, 'UPG35-2', 'Once', 901, '/1/')`,
      sql`insert into telemetry (device_id, ts, received_at, vals) values
        (9101, '2026-03-04T10:00:00Z', '2026-03-04T10:00:02Z', '{"a": 2, "c": 3}'),
        (9101, '2026-03-04T10:00:00Z', '2026-03-04T10:00:01Z', '{"a": 1, "b": 1}'),
        (9101, '2026-03-04T10:00:00Z', '2026-03-04T10:00:03Z', '{"a": 2, "c": 3}'),
        (9101, '2026-03-04T10:01:00Z', '2026-03-04T10:01:00Z', '{"a": 5}'),
        (9101, '2026-03-04T10:01:00Z', '2026-03-04T10:01:09Z', '{"a": 5}'),
        (9101, '2026-03-04T10:02:00Z', '2026-03-04T10:02:00Z', '{"a": 6}'),
        (9101, '2026-03-04T10:03:00Z', '2026-03-04T10:03:00Z', '{"a": 8, "b": 8}'),
        (9101, '2026-03-04T10:03:00Z', '2026-03-04T10:03:00Z', '{"a": 9}'),
        (9102, '2026-03-04T10:00:00Z', '2026-03-04T10:00:00Z', '{"a": 7}')`,
      sql`insert into device_positions (id, device_id, ts, lng, lat) values
        (11, 9101, '2026-03-04T10:00:00Z', 116.39, 39.91),
        (12, 9101, '2026-03-04T10:00:00Z', 116.39, 39.91),
        (13, 9101, '2026-03-04T10:01:00Z', 121.47, 31.23),
        (14, 9102, '2026-03-04T10:00:00Z', 100, 30)`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const db = upgraded.db;
    const telemetry = () =>
      rowsOf<{ device_id: number; ts: string; received_at: string; vals: unknown }>(
        db,
        sql`select device_id, to_char(ts at time zone 'UTC', 'HH24:MI') as ts, to_char(received_at at time zone 'UTC', 'HH24:MI:SS') as received_at, vals
          from telemetry order by device_id, ts`,
      );
    expect(await telemetry()).toEqual([
      // Merged in arrival order: the later copies' `a` wins, `b` and `c` are kept; received first.
      { device_id: 9101, ts: '10:00', received_at: '10:00:01', vals: { a: 2, b: 1, c: 3 } },
      { device_id: 9101, ts: '10:01', received_at: '10:01:00', vals: { a: 5 } },
      { device_id: 9101, ts: '10:02', received_at: '10:02:00', vals: { a: 6 } },
      { device_id: 9101, ts: '10:03', received_at: '10:03:00', vals: { a: 9, b: 8 } },
      { device_id: 9102, ts: '10:00', received_at: '10:00:00', vals: { a: 7 } },
    ]);
    expect(await rowsOf<{ id: number }>(db, sql`select id::int as id from device_positions order by id`)).toEqual([{ id: 11 }, { id: 13 }, { id: 14 }]);

    // Unique now (23505: unique violation), on the day that existed and on one created after.
    const sqlState = (query: ReturnType<typeof sql>) =>
      db.execute(query).then(
        () => 'stored',
        (err: Error & { cause?: { code?: string } }) => err.cause?.code,
      );
    await createPartition(db, new Date('2026-03-05T00:00:00Z'));
    for (const ts of ['2026-03-04T10:02:00Z', '2026-03-05T08:00:00Z']) {
      const insert = sql`insert into telemetry (device_id, ts, vals) values (9102, ${ts}::timestamptz, '{"x": 1}')`;
      expect(await sqlState(insert)).toBe('stored');
      expect(await sqlState(insert)).toBe('23505');
    }
    expect(await sqlState(sql`insert into device_positions (device_id, ts, lng, lat) values (9101, '2026-03-04T10:01:00Z', 1, 1)`)).toBe('23505');
    await upgraded.close();
  });

  it('0043–0044: the built-in battery rules still as seeded are re-levelled with their open alarms; the alarm list shows in the sidebar', async () => {
    const target = await restore('0043_alarm_severity_scale');
    const older = await target.older();
    const rule = (id: number, sem: string, cmp: string, thr: string, thr2: number | null, level: number) => ({ id, sem, cmp, thr, thr2, level });
    // The rules as releases before seeded them, one the administrator edited (its threshold), and
    // an install still on the old ids (10000007: signal strength), which the seed moves later.
    const seeded = [
      rule(501, '02109001', 'lt', '10', null, 2),
      rule(502, '10000014', 'lt', '2.8', null, 1),
      rule(503, '10000013', 'gt', '3.65', null, 1),
      rule(504, '01119001', 'outside', '-20', 55, 1),
      rule(505, '10000006', 'eq', '3', null, 1),
      rule(506, '10000007', 'lt', '-110', null, 4),
    ];
    const edited = rule(511, '10000013', 'gt', '3.7', null, 1);
    const keyOf = (r: ReturnType<typeof rule>) => ruleKey({ semaphoreId: r.sem, comparison: r.cmp, threshold: r.thr, threshold2: r.thr2, level: r.level });
    for (const statement of [
      sql`insert into device_types (id, code, name, builtin) values (910, 'BMU', '电池管理单元', true), (911, 'OTHER', 'Other', false)`,
      ...[...seeded.map((r) => ({ ...r, type: 910 })), { ...edited, type: 911 }, { ...rule(512, '10000006', 'eq', '3', null, 1), type: 911 }].map(
        (r) => sql`insert into device_type_alarms (id, type_id, semaphore_id, comparison, threshold, threshold2, level, message)
          values (${r.id}, ${r.type}, ${r.sem}, ${r.cmp}, ${r.thr}, ${r.thr2}, ${r.level}, 'm')`,
      ),
      sql`insert into devices (id, sn, name, type_id, owner_path, warning_level) values
        (9201, 'SEV-1', 'Over-voltage', 910, '/1/', 1), (9202, 'SEV-2', 'Weak signal', 910, '/1/', 4), (9203, 'SEV-3', 'Other type', 911, '/1/', 1)`,
      // Open: the over-voltage rule's alarm and the device's own report on the same parameter; ended: an earlier one.
      sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, ended_at) values
        (9201, ${keyOf(seeded[2]!)}, 'rule', '10000013', 1, now() - interval '2 minutes', null),
        (9201, 'd10000013', 'device', '10000013', 1, now() - interval '2 minutes', null),
        (9201, ${keyOf(seeded[2]!)}, 'rule', '10000013', 1, now() - interval '1 day', now() - interval '23 hours'),
        (9202, ${keyOf(seeded[5]!)}, 'rule', '10000007', 4, now() - interval '1 minute', null),
        (9203, ${keyOf(rule(0, '10000006', 'eq', '3', null, 1))}, 'rule', '10000006', 1, now(), null)`,
      sql`insert into menus (id, parent_id, name, name_en, name_es, name_ja, menu_url, identification, is_show) values
        (700, 0, '项目管理', 'Projects', 'Proyectos', 'プロジェクト管理', '/project', 'project', 1),
        (701, 700, '历史告警', 'Historical alarms', 'Alarmas históricas', 'アラーム履歴', 'alarminfo', 'project-alarminfo', 0)`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const db = upgraded.db;
    const levels = await rowsOf<{ id: number; level: number }>(db, sql`select id, level from device_type_alarms order by id`);
    expect(Object.fromEntries(levels.map((r) => [r.id, r.level]))).toEqual({
      501: 2, // low state of charge: 2 as before
      502: 3, // cell under-voltage
      503: 4, // cell over-voltage
      504: 3, // cell temperature out of range
      505: 4, // battery fault
      506: 1, // weak signal (old id)
      511: 1, // another type's rules are its administrator's
      512: 1,
    });
    const alarms = await rowsOf<{ device_id: number; source: string; level: number; rule_key: string; open: boolean }>(
      db,
      sql`select device_id, source, level, rule_key, ended_at is null as open from alarms order by device_id, started_at desc, source`,
    );
    const relevelled = { ...seeded[2]!, level: 4 };
    expect(alarms).toEqual([
      // The key the engine computes for the re-levelled rule: the alarm stays open, not raised again.
      { device_id: 9201, source: 'device', level: 4, rule_key: 'd10000013', open: true },
      { device_id: 9201, source: 'rule', level: 4, rule_key: keyOf(relevelled), open: true },
      { device_id: 9201, source: 'rule', level: 1, rule_key: keyOf(seeded[2]!), open: false },
      { device_id: 9202, source: 'rule', level: 1, rule_key: keyOf({ ...seeded[5]!, level: 1 }), open: true },
      { device_id: 9203, source: 'rule', level: 1, rule_key: keyOf(rule(0, '10000006', 'eq', '3', null, 1)), open: true },
    ]);
    const warning = await rowsOf<{ id: number; warning_level: number }>(db, sql`select id, warning_level from devices order by id`);
    expect(warning).toEqual([{ id: 9201, warning_level: 4 }, { id: 9202, warning_level: 1 }, { id: 9203, warning_level: 1 }]);
    const [menu] = await rowsOf<{ is_show: number; name_en: string; icon: string }>(db, sql`select is_show, name_en, icon from menus where id = 701`);
    expect(menu).toEqual({ is_show: 1, name_en: 'Alarms', icon: 'BellOutlined' });
    await upgraded.close();
  });

  it('0045: each card gets the device whose SIM number is its ICCID or MSISDN', async () => {
    const target = await restore('0045_card_device_link');
    const older = await target.older();
    for (const statement of [
      sql`insert into device_types (id, code, name) values (920, 'LNK', 'Link')`,
      sql`insert into devices (id, sn, name, type_id, owner_path, sim_number) values
        (9301, 'LNK-1', 'By ICCID', 920, '/1/', '89860400000000009301'), (9302, 'LNK-2', 'By MSISDN', 920, '/1/', '1440000009302'),
        (9303, 'LNK-3', 'No card', 920, '/1/', '')`,
      sql`insert into sim_cards (id, iccid, msisdn, owner_path) values
        (9401, '89860400000000009301', '', '/1/'), (9402, '89860400000000009402', '1440000009302', '/1/'), (9403, '89860400000000009403', '', '/1/')`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const cards = await rowsOf<{ id: number; device_id: number | null }>(upgraded.db, sql`select id, device_id from sim_cards order by id`);
    expect(cards).toEqual([{ id: 9401, device_id: 9301 }, { id: 9402, device_id: 9302 }, { id: 9403, device_id: null }]);
    await upgraded.close();
  });

  it('0046: every role of an existing install keeps the dashboard (home:view); a new install gets it from the seed only', async () => {
    const target = await restore('0046_home_dashboard');
    const older = await target.older();
    for (const statement of [
      sql`insert into roles (id, name, identification, builtin) values (801, 'Super administrator', 'SUPERADMIN', true), (802, 'Viewers', 'VIEWERS', false)`,
      sql`insert into device_types (id, code, name) values (921, 'HOMEUP', 'Home upgrade')`,
      sql`insert into devices (id, sn, name, type_id, owner_path, alarm_phone) values (9311, 'HOME-UP-1', 'Phone', 921, '/1/', '138')`,
      sql`insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at) values (9311, 'dX', 'device', 'X', 4, now())`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const db = upgraded.db;
    const granted = await rowsOf<{ identification: string }>(db, sql`select r.identification from role_permissions rp
      join roles r on r.id = rp.role_id join permissions p on p.id = rp.permission_id where p.identification = 'home:view' order by r.id`);
    expect(granted.map((r) => r.identification)).toEqual(['SUPERADMIN', 'VIEWERS']);
    const [menu] = await rowsOf<{ is_show: number; menu_url: string }>(db, sql`select is_show, menu_url from menus where identification = 'dashboard'`);
    expect(menu).toEqual({ is_show: 0, menu_url: '/dashboard' });
    // Alarms raised before the release were never marked: no call-out is invented for them.
    expect(await rowsOf(db, sql`select callout from alarms where device_id = 9311`)).toEqual([{ callout: false }]);
    await upgraded.close();

    // A new database: the migration adds no menu or permission (the seed does, with its grants).
    const empty = await (await restore(LATEST)).older();
    expect(await rowsOf(empty.db, sql`select 1 from permissions where identification = 'home:view'`)).toEqual([]);
    await empty.close();
  });

  it('0053: every role of an existing install that may send device commands may set geo-fences; a new install gets the code from the seed', async () => {
    const target = await restore('0053_geo_fences');
    const older = await target.older();
    for (const statement of [
      sql`insert into roles (id, name, identification, builtin) values (811, 'Operators', 'OPS', false), (812, 'Viewers', 'VIEWERS', false)`,
      sql`insert into menus (id, parent_id, name, name_en, name_es, name_ja, menu_url, menu_type, sort, icon, identification, is_show)
        values (9401, 0, '项目', 'Projects', 'Proyectos', 'プロジェクト', '/project/index', 0, 1, '', 'project-index', 1)`,
      sql`insert into permissions (id, name, identification, menu_id) values (9501, 'Send device commands', 'device:command', 9401),
        (9502, 'List devices', 'device:list', 9401)`,
      sql`insert into role_permissions (role_id, permission_id) values (811, 9501), (811, 9502), (812, 9502)`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const granted = await rowsOf<{ identification: string }>(upgraded.db, sql`select r.identification from role_permissions rp
      join roles r on r.id = rp.role_id join permissions p on p.id = rp.permission_id where p.identification = 'device:fence' order by r.id`);
    expect(granted.map((r) => r.identification)).toEqual(['OPS']);
    expect(await rowsOf(upgraded.db, sql`select menu_id from permissions where identification = 'device:fence'`)).toEqual([{ menu_id: 9401 }]);
    await upgraded.close();

    const empty = await (await restore(LATEST)).older();
    expect(await rowsOf(empty.db, sql`select 1 from permissions where identification = 'device:fence'`)).toEqual([]);
    await empty.close();
  });

  it('0052: roles that may list or open devices get the fleet map (map:view) on a new Projects entry', async () => {
    const target = await restore('0052_fleet_map');
    const older = await target.older();
    for (const statement of [
      sql`insert into roles (id, name, identification, builtin) values (811, 'Operators', 'OPS', false), (812, 'Cards only', 'CARDS', false)`,
      sql`insert into menus (id, parent_id, name, name_en, name_es, name_ja, menu_url, menu_type, sort, identification)
        values (8101, 0, '项目管理', 'Projects', 'Proyectos', 'プロジェクト管理', '/project', 1, 20, 'project'),
               (8102, 0, '设备列表', 'Device list', 'Lista', '一覧', 'list', 0, 0, 'device-list')`,
      sql`insert into permissions (id, name, identification, menu_id) values (8201, 'List devices', 'device:list', 8102), (8202, 'List SIM cards', 'card:list', 8102)`,
      sql`insert into role_permissions (role_id, permission_id) values (811, 8201), (812, 8202)`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const granted = await rowsOf<{ identification: string }>(upgraded.db, sql`select r.identification from role_permissions rp
      join roles r on r.id = rp.role_id join permissions p on p.id = rp.permission_id where p.identification = 'map:view' order by r.id`);
    expect(granted.map((r) => r.identification)).toEqual(['OPS']);
    const [menu] = await rowsOf(upgraded.db, sql`select parent_id, menu_url, is_show from menus where identification = 'project-map'`);
    expect(menu).toEqual({ parent_id: 8101, menu_url: 'map', is_show: 1 });
    await upgraded.close();
  });

  it('0047: the battery summary of every device from its latest values, and the energy of the hours already rolled up', async () => {
    const target = await restore(BATTERY_MIGRATION);
    const older = await target.older();
    const at = (h: number) => `2026-03-02T${String(h).padStart(2, '0')}:00:00Z`;
    const mm = (chg: number, chg2: number, dis: number, v: number) =>
      JSON.stringify({ '02117001': [chg, 0, chg2, 0], '02116001': [dis, 0, dis, 0], '01111001': [v, 0, v, 0] });
    for (const statement of [
      sql`insert into device_types (id, code, name) values (920, 'UPGB', 'Upgrade battery')`,
      sql`insert into devices (id, sn, name, type_id, owner_path) values
        (9301, 'UPB-1', 'Pack', 920, '/1/'), (9302, 'UPB-2', 'No battery figures', 920, '/1/'), (9303, 'UPB-3', 'Text SOC', 920, '/1/')`,
      sql`insert into device_latest (device_id, vals, ts) values
        (9301, ${JSON.stringify({ '02109001': [42.5, 1], '01112001': [-3, 1], '01117001': [3.3, 1], '01117002': [3.32, 1], '01119001': [28, 1], '01119002': [31, 1] })}::jsonb, now()),
        (9302, ${JSON.stringify({ '01111001': [52, 1] })}::jsonb, now()),
        (9303, ${JSON.stringify({ '02109001': ['abc', 1], '01112001': [0.1, 1] })}::jsonb, now())`,
      // Two hours rolled up: 10 Ah charged at 100 V from 10:00 to 11:00, none after.
      sql`insert into telemetry_rollup_hour (device_id, bucket, mm) values
        (9301, ${at(10)}::timestamptz, ${mm(0, 5, 0, 100)}::jsonb), (9301, ${at(11)}::timestamptz, ${mm(10, 10, 0, 100)}::jsonb)`,
    ]) {
      await older.db.execute(statement);
    }
    await older.close();

    const upgraded = await target.open();
    const db = upgraded.db;
    expect(await rowsOf(db, sql`select device_id, soc, current, state, max_cell_temp, cell_delta_mv from device_battery order by device_id`)).toEqual([
      { device_id: 9301, soc: 42.5, current: -3, state: 'discharging', max_cell_temp: 31, cell_delta_mv: 20 },
      { device_id: 9303, soc: null, current: 0.1, state: 'idle', max_cell_temp: null, cell_delta_mv: null },
    ]);
    const energy = await rowsOf<{ bucket: Date | string; owner_path: string; charged_kwh: number; discharged_kwh: number; devices: number }>(
      db,
      sql`select bucket, owner_path, charged_kwh, discharged_kwh, devices from battery_energy_hour order by bucket`,
    );
    expect(energy.map((r) => ({ ...r, bucket: new Date(r.bucket).toISOString() }))).toEqual([
      { bucket: new Date(at(10)).toISOString(), owner_path: '/1/', charged_kwh: 1, discharged_kwh: 0, devices: 1 },
      { bucket: new Date(at(11)).toISOString(), owner_path: '/1/', charged_kwh: 0, discharged_kwh: 0, devices: 1 },
    ]);
    await upgraded.close();
  });
});
