import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

/**
 * Lists at scale (issue #14): totals counted up to a cap and marked inexact past it, pages in a
 * stable order when many rows share a time, the one-column free-text search, and scoped lists
 * through the indexable visibility condition.
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const { call, ok } = apiAs(() => t, tokens);
let agentId: number;

beforeAll(async () => {
  // These tests page through lists far faster than a person: no per-session rate limit.
  t = await buildTestApp({ API_RATE_LIMIT: '0' });
  tokens.admin = await t.login();
  agentId = await t.createUser({ username: 'agent', password: 'agent-pass-1', role: 'ADMIN', type: 1 });
  tokens.agent = await t.login('agent', 'agent-pass-1');
});
afterAll(() => t.close());

describe('lists at scale', () => {
  it('counts up to 10,000 and says so; a narrow filter stays exact', async () => {
    await t.database.db.execute(sql`
      insert into operation_logs (username, user_path, role, action, entity, result, created_at)
      select 'bulk', '/1/', 'SUPERADMIN', 'device.edit', 'device', case when i % 1000 = 0 then 'failure' else 'success' end,
        now() - (i || ' seconds')::interval
      from generate_series(1, 10050) i`);
    const all = await ok('admin', 'GET', '/logs/list?limit=50');
    expect(all).toMatchObject({ total: 10_000, exact: false });
    expect(all.items).toHaveLength(50);
    // (Other tests of this file write logs too, in any order: the narrow filters name this one's.)
    const failures = await ok('admin', 'GET', '/logs/list?username=bulk&result=failure');
    expect(failures).toMatchObject({ total: 10, exact: true });
    // The username filter takes the whole name, whatever its case.
    expect(await ok('admin', 'GET', '/logs/list?username=BULK&result=failure')).toMatchObject({ total: 10, exact: true });
    expect(await ok('admin', 'GET', '/logs/list?username=bul')).toMatchObject({ total: 0, exact: true });
    // The last page the pager offers still answers rows.
    expect((await ok('admin', 'GET', '/logs/list?limit=50&page=200')).items).toHaveLength(50);
    // Rows removed behind the API's back: the next request counts them gone.
    await t.database.db.execute(sql`delete from operation_logs where username = 'bulk'`);
    expect(await ok('admin', 'GET', '/logs/list?username=bulk&limit=20')).toMatchObject({ total: 0, exact: true, items: [] });
  });

  it('pages devices created together (one created_at) without repeating or skipping any', async () => {
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    await t.database.db.execute(sql`
      insert into devices (sn, name, type_id, owner_path)
      select 'TIE-' || lpad(i::text, 3, '0'), 'Tie ' || i, ${typeId}, '/1/' from generate_series(1, 45) i`);
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await ok('admin', 'GET', `/device/list?q=tie-&limit=10&page=${page}`);
      expect(res).toMatchObject({ total: 45, exact: true });
      seen.push(...res.items.map((d: { sn: string }) => d.sn));
    }
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    // Newest first; ties by id, newest id first.
    expect(seen[0]).toBe('TIE-045');
    expect(seen.at(-1)).toBe('TIE-001');
  });

  it('finds text anywhere in name, SN, IMEI or SIM number, whatever its case, and a % is literal', async () => {
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    const a: { id: number } = await ok('admin', 'POST', '/device/add', { typeId, name: 'Harbour Crane', sn: 'HC-77001', imei: '861234567890123', simNumber: '89860412345678901234' });
    const b: { id: number } = await ok('admin', 'POST', '/device/add', { typeId, name: 'Rate 100% pack', sn: 'PCT-1' });
    const ids = async (q: string) =>
      (await ok('admin', 'GET', `/device/list?q=${encodeURIComponent(q)}`)).items.map((d: { id: number }) => d.id);
    expect(await ids('harBOUR')).toEqual([a.id]);
    expect(await ids('c-770')).toEqual([a.id]);
    expect(await ids('4567890')).toEqual([a.id]);
    expect(await ids('0412345')).toEqual([a.id]);
    expect(await ids('100%')).toEqual([b.id]);
    expect(await ids('10_%')).toEqual([]);
    // An edit is searchable at once (PostgreSQL keeps the search column).
    await ok('admin', 'POST', '/device/edit', { id: b.id, typeId, sn: 'PCT-1', name: 'Renamed Zeppelin' });
    expect(await ids('zeppelin')).toEqual([b.id]);
  });

  it('a scoped user sees its own devices and those of a project shared with it, nothing else', async () => {
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    const own = await ok('agent', 'POST', '/device/add', { typeId, name: 'Agent own', sn: 'AG-OWN' });
    const project = await ok('admin', 'POST', '/project/addproject', { name: 'Shared site' });
    const shared = await ok('admin', 'POST', '/device/add', { typeId, name: 'In shared', sn: 'AG-SHARED', projectId: project.id });
    await ok('admin', 'POST', '/device/add', { typeId, name: 'Not shared', sn: 'AG-HIDDEN' });
    await t.database.db.execute(sql`insert into project_users (project_id, user_id) values (${project.id}, ${agentId})`);
    const res = await ok('agent', 'GET', '/device/list?q=ag-');
    expect(res.items.map((d: { id: number }) => d.id).sort()).toEqual([own.id, shared.id].sort());
    expect(res).toMatchObject({ total: 2, exact: true });
  });

  it('a total follows every change at once, whoever makes it: no remembered count', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    const rowsOf = async <R>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: R[] }).rows;
    const [{ path: agentPath }] = (await rowsOf<{ path: string }>(sql`select path from users where id = ${agentId}`)) as [{ path: string }];
    const total = async (who: string, query = '') => (await ok(who, 'GET', `/device/list?q=vt-${query}`)).total as number;

    await ok('agent', 'POST', '/device/add', { typeId, name: 'Changed 1', sn: 'VT-1' });
    expect(await total('agent')).toBe(1);
    // A script writing to the database, not through the API: the next request sees it.
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path) values ('VT-2', 'Changed 2', ${typeId}, ${agentPath})`);
    expect(await total('agent')).toBe(2);
    await db.execute(sql`update devices set sn = 'RENAMED-2' where sn = 'VT-2'`);
    expect(await total('agent')).toBe(1);
    // The caller's scope: a project shared with the agent, then taken back.
    const project = await ok('admin', 'POST', '/project/addproject', { name: 'Changing site' });
    await ok('admin', 'POST', '/device/add', { typeId, name: 'In changing site', sn: 'VT-SITE', projectId: project.id });
    expect(await total('agent')).toBe(1);
    await db.execute(sql`insert into project_users (project_id, user_id) values (${project.id}, ${agentId})`);
    expect(await total('agent')).toBe(2);
    await db.execute(sql`delete from project_users where project_id = ${project.id}`);
    expect(await total('agent')).toBe(1);
    // What devices report counts at once too.
    await db.execute(sql`update devices set online = true, warning_level = 2 where sn = 'VT-1'`);
    expect(await total('agent', '&online=true')).toBe(1);
    expect(await total('agent', '&warningLevel=2')).toBe(1);

    // Past the cap "10,000+", and exact again as soon as the rows are gone.
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path, online)
      select 'MANY-' || lpad(i::text, 5, '0'), 'Many ' || i, ${typeId}, '/1/', true from generate_series(1, 10050) i`);
    const many = () => ok('admin', 'GET', '/device/list?q=many-&online=true&limit=10');
    expect(await many()).toMatchObject({ total: 10_000, exact: false, items: [{ sn: 'MANY-10050' }, {}, {}, {}, {}, {}, {}, {}, {}, {}] });
    await db.execute(sql`delete from devices where sn like 'MANY-%' and sn > 'MANY-00100'`);
    expect(await many()).toMatchObject({ total: 100, exact: true, items: [{ sn: 'MANY-00100' }, {}, {}, {}, {}, {}, {}, {}, {}, {}] });
    await db.execute(sql`delete from devices where sn like 'MANY-%'`);

    // Alarms, projects and login logs alike.
    const alarmTotal = async () => (await ok('agent', 'GET', '/device/alarmlist?device=vt-1')).total as number;
    expect(await alarmTotal()).toBe(0);
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, state)
      select id, 'a', 'rule', '01010001', 2, now(), 'untreated' from devices where sn = 'VT-1'`);
    expect(await alarmTotal()).toBe(1);
    const projectTotal = async () => (await ok('admin', 'GET', '/project/list?name=changing')).total as number;
    expect(await projectTotal()).toBe(1);
    await db.execute(sql`update projects set name = 'Renamed site' where id = ${project.id}`);
    expect(await projectTotal()).toBe(0);
    const logins = async () => (await ok('admin', 'GET', '/logs/loginlist?username=agent')).total as number;
    const before = await logins();
    await t.login('agent', 'agent-pass-1');
    expect(await logins()).toBe(before + 1);
    await db.execute(sql`delete from devices where sn like 'VT-%'`);
  });

  // PGlite has one connection: an open transaction holds up every other statement there.
  it.skipIf(process.env.TEST_DB !== 'postgres')('a device edit does not wait behind an import still writing', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    const device = await ok('admin', 'POST', '/device/add', { typeId, name: 'Edited while importing', sn: 'EDIT-1' });
    let finish!: () => void;
    const importing = new Promise<void>((resolve) => (finish = resolve));
    let inserted!: () => void;
    const started = new Promise<void>((resolve) => (inserted = resolve));
    // What an import's transaction does: insert devices, then stay open while it goes on.
    const importer = db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into devices (sn, name, type_id, owner_path)
        select 'IMPORTING-' || i, 'Importing ' || i, ${typeId}, '/1/' from generate_series(1, 500) i`);
      inserted();
      await importing;
    });
    await started;
    const t0 = Date.now();
    await ok('admin', 'POST', '/device/edit', { id: device.id, name: 'Edited at once' });
    const listed = await ok('admin', 'GET', '/device/list?q=edit-1');
    expect(Date.now() - t0).toBeLessThan(2_000);
    finish();
    await importer;
    expect(listed.items[0]).toMatchObject({ name: 'Edited at once' });
    await db.execute(sql`delete from devices where sn like 'IMPORTING-%' or sn = 'EDIT-1'`);
  });

  it('a deep page by offset has the rows of the page before and after it, in every list', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path)
      select 'DEEP-' || lpad(i::text, 3, '0'), 'Deep ' || i, ${typeId}, '/1/' from generate_series(1, 95) i`);
    const sns = async (query: string) => ((await ok('admin', 'GET', `/device/list?q=deep-&${query}`)).items as { sn: string }[]).map((d) => d.sn);
    const all = await sns('sort=sn&order=asc&limit=100');
    expect(all).toHaveLength(95);
    for (const page of [2, 5, 9, 10]) expect(await sns(`sort=sn&order=asc&limit=10&page=${page}`)).toEqual(all.slice((page - 1) * 10, page * 10));
    // The total, whether the page tells it (the last, partly filled one) or it is counted (a full
    // page, a page past the end, a page after a cursor).
    const totalOf = async (query: string) => (await ok('admin', 'GET', `/device/list?q=deep-&${query}`)) as { total: number; exact: boolean; items: unknown[] };
    expect(await totalOf('limit=10&page=10')).toMatchObject({ total: 95, exact: true, items: { length: 5 } });
    expect(await totalOf('limit=5&page=19')).toMatchObject({ total: 95, exact: true, items: { length: 5 } });
    expect(await totalOf('limit=10&page=11')).toMatchObject({ total: 95, exact: true, items: [] });
    const first = await ok('admin', 'GET', '/device/list?q=deep-&limit=90');
    expect(await totalOf(`limit=10&after=${encodeURIComponent(first.next)}`)).toMatchObject({ total: 95, items: { length: 5 } });
    // A change between two pages moves the rows at once.
    await db.execute(sql`delete from devices where sn = 'DEEP-001'`);
    expect(await sns('sort=sn&order=asc&limit=10&page=2')).toEqual(all.slice(11, 21));
    await db.execute(sql`delete from devices where sn like 'DEEP-%'`);
  });

  it('a device page answers each filter with its own rows', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path, warning_level)
      select 'SHAPE-' || i, 'Shape ' || i, ${typeId}, case when i <= 3 then ${`/1/${agentId}/`} else '/1/' end, i % 2
      from generate_series(1, 6) i`);
    await db.execute(sql`update devices set parent_id = (select id from devices where sn = 'SHAPE-1') where sn in ('SHAPE-2', 'SHAPE-5')`);
    const sns = async (who: string, query: string) =>
      ((await ok(who, 'GET', `/device/list?sort=sn&order=asc&${query}`)).items as { sn: string }[]).map((d) => d.sn);
    // One shape, other values; then the same filters with a condition that has no value (topLevel).
    expect(await sns('admin', 'q=shape-&warningLevel=1')).toEqual(['SHAPE-1', 'SHAPE-3', 'SHAPE-5']);
    expect(await sns('admin', 'q=shape-&warningLevel=0')).toEqual(['SHAPE-2', 'SHAPE-4', 'SHAPE-6']);
    expect(await sns('admin', 'q=shape-5&warningLevel=1')).toEqual(['SHAPE-5']);
    expect(await sns('admin', 'q=shape-&warningLevel=1&topLevel=true')).toEqual(['SHAPE-1', 'SHAPE-3']);
    // Any open alarm, whatever its level (the dashboard's "alarming" link), and none.
    await db.execute(sql`update devices set warning_level = 4 where sn = 'SHAPE-3'`);
    expect(await sns('admin', 'q=shape-&alarming=true')).toEqual(['SHAPE-1', 'SHAPE-3', 'SHAPE-5']);
    expect(await sns('admin', 'q=shape-&alarming=false')).toEqual(['SHAPE-2', 'SHAPE-4', 'SHAPE-6']);
    expect(await sns('agent', 'q=shape-&alarming=true')).toEqual(['SHAPE-1', 'SHAPE-3']);
    await db.execute(sql`update devices set warning_level = 1 where sn = 'SHAPE-3'`);
    expect(await sns('admin', 'q=shape-&warningLevel=1')).toEqual(['SHAPE-1', 'SHAPE-3', 'SHAPE-5']);
    // The caller's scope is a value too: the agent's page has the agent's devices only.
    expect(await sns('agent', 'q=shape-')).toEqual(['SHAPE-1', 'SHAPE-2', 'SHAPE-3']);
    expect(await sns('admin', 'q=shape-')).toHaveLength(6);
    // Pages of one shape: the limit and offset are values as well.
    expect(await sns('admin', 'q=shape-&limit=4&page=2')).toEqual(['SHAPE-5', 'SHAPE-6']);
    expect(await sns('admin', 'q=shape-&limit=2&page=2')).toEqual(['SHAPE-3', 'SHAPE-4']);
    await db.execute(sql`delete from devices where sn like 'SHAPE-%'`);
  });

  it('every list answers each filter with its own rows', async () => {
    const db = t.database.db;
    // Operation and login logs of two users, a day apart; device logs of two SNs.
    await db.execute(sql`
      insert into operation_logs (username, user_path, role, action, entity, result, created_at)
      select case when i % 2 = 0 then 'shape-a' else 'shape-b' end, '/1/', 'SUPERADMIN',
        case when i % 3 = 0 then 'user.add' else 'device.edit' end, 'device', 'success',
        timestamptz '2026-10-01 00:00:00' + (i || ' hours')::interval
      from generate_series(1, 48) i`);
    await db.execute(sql`
      insert into login_logs (username, result, created_at)
      select case when i <= 5 then 'shape-a' else 'shape-b' end, 'success', timestamptz '2026-10-01 00:00:00' + (i || ' days')::interval
      from generate_series(1, 12) i`);
    await db.execute(sql`
      insert into device_logs (sn, kind, owner_path, created_at)
      select case when i <= 7 then 'SHAPE-LOG-A' else 'SHAPE-LOG-B' end, 'rejected', '/1/', timestamptz '2026-10-01 00:00:00' + (i || ' days')::interval
      from generate_series(1, 10) i`);
    const total = async (path: string) => (await ok('admin', 'GET', path)).total as number;
    const ops = '/logs/list?username=';
    expect([await total(`${ops}shape-a`), await total(`${ops}shape-b`), await total(`${ops}nobody`)]).toEqual([24, 24, 0]);
    // A whole action code, then a prefix (another shape), then another code.
    expect(await total(`${ops}shape-a&action=user.add`)).toBe(8);
    expect(await total(`${ops}shape-a&action=device.`)).toBe(16);
    expect(await total(`${ops}shape-b&action=user.add`)).toBe(8);
    const window = (from: string, to: string) => `&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    expect(await total(`${ops}shape-a${window('2026-10-01T00:00:00Z', '2026-10-01T12:00:00Z')}`)).toBe(6);
    expect(await total(`${ops}shape-a${window('2026-10-02T00:00:00Z', '2026-10-03T00:00:00Z')}`)).toBe(13);
    const items = (await ok('admin', 'GET', `${ops}shape-b&limit=3&page=2`)).items as { username: string }[];
    expect(items.map((r) => r.username)).toEqual(['shape-b', 'shape-b', 'shape-b']);
    expect([await total('/logs/loginlist?username=shape-a'), await total('/logs/loginlist?username=shape-b')]).toEqual([5, 7]);
    expect(await total(`/logs/loginlist?username=shape-b&from=${encodeURIComponent('2026-10-10T00:00:00Z')}`)).toBe(4);
    expect([await total('/logs/devicelogs?sn=SHAPE-LOG-A'), await total('/logs/devicelogs?sn=SHAPE-LOG-B')]).toEqual([7, 3]);
    expect(await total(`/logs/devicelogs?sn=SHAPE-LOG-A${window('2026-10-03T00:00:00Z', '2026-10-05T00:00:00Z')}`)).toBe(2);

    // Projects and users: a name filter with two values, a page of each size.
    await ok('admin', 'POST', '/project/addproject', { name: 'Shape North 1' });
    await ok('admin', 'POST', '/project/addproject', { name: 'Shape North 2' });
    await ok('admin', 'POST', '/project/addproject', { name: 'Shape South' });
    const names = async (path: string) => ((await ok('admin', 'GET', path)).items as { name: string }[]).map((p) => p.name);
    expect(await names('/project/list?name=shape north&sort=name&order=asc')).toEqual(['Shape North 1', 'Shape North 2']);
    expect(await names('/project/list?name=shape south&sort=name&order=asc')).toEqual(['Shape South']);
    expect(await names('/project/list?name=shape&sort=name&order=asc&limit=2&page=2')).toEqual(['Shape South']);
    // A page past the first carries its own rows' columns (read for the page's ids only).
    const south = (await ok('admin', 'GET', '/project/list?name=shape south')).items[0] as { id: number };
    const bmu = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    for (const sn of ['PJ-SOUTH-1', 'PJ-SOUTH-2']) await ok('admin', 'POST', '/device/add', { typeId: bmu, name: sn, sn, projectId: south.id });
    const page2 = await ok('admin', 'GET', '/project/list?name=shape&sort=name&order=asc&limit=2&page=2');
    expect(page2.items).toEqual([expect.objectContaining({ id: south.id, name: 'Shape South', deviceCount: 2, ownerName: 'admin' })]);
    expect((await ok('admin', 'GET', '/project/list?name=shape&sort=name&order=asc&limit=2&page=1')).items.map((p: { deviceCount: number }) => p.deviceCount)).toEqual([0, 0]);
    expect(await names('/project/list?name=shape&sort=name&order=desc&limit=2&page=1')).toEqual(['Shape South', 'Shape North 2']);
    // The total is counted inside the page's statement; a page past the end counts alone.
    expect([await total('/project/list?name=shape north'), await total('/project/list?name=shape south')]).toEqual([2, 1]);
    expect(await total('/project/list?name=shape&limit=2&page=5')).toBe(3);
    expect(await names('/project/list?name=shape&limit=2&page=5')).toEqual([]);
    // Any case, letters beyond ASCII too; LIKE's wildcards typed by the user are plain characters.
    await ok('admin', 'POST', '/project/addproject', { name: 'Überlandwerk 100%' });
    await ok('admin', 'POST', '/project/addproject', { name: 'ÜBERLANDWERK 1000' });
    expect(await names('/project/list?name=überlandwerk&sort=name&order=asc')).toEqual(['ÜBERLANDWERK 1000', 'Überlandwerk 100%']);
    expect(await names(`/project/list?name=${encodeURIComponent('WERK 100%')}`)).toEqual(['Überlandwerk 100%']);
    expect(await names(`/project/list?name=${encodeURIComponent('werk 1_0')}`)).toEqual([]);
    const usernames = async (who: string, path: string) =>
      ((await ok(who, 'GET', path)).items as { username: string }[]).map((u) => u.username);
    expect(await usernames('admin', '/user/list?username=agen')).toEqual(['agent']);
    expect(await usernames('admin', '/user/list?username=nobody')).toEqual([]);
    expect([await total('/user/list?username=agen'), await total('/user/list?username=nobody')]).toEqual([1, 0]);
    // The caller is a value of the query as well: nobody lists itself.
    expect(await usernames('agent', '/user/list')).not.toContain('agent');
    const adminSees = await usernames('admin', '/user/list');
    expect(adminSees).toContain('agent');
    expect(adminSees).not.toContain('admin');

    // Alarms: two levels, a device search, and the activity filter (a condition without a value).
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path) values ('SHAPE-AL-1', 'Shape alarm 1', ${typeId}, '/1/'), ('SHAPE-AL-2', 'Shape alarm 2', ${typeId}, '/1/')`);
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, ended_at, state)
      select d.id, 'shape' || g.i, 'rule', '01010001', 1 + g.i % 2, timestamptz '2026-10-01 00:00:00' + (g.i || ' hours')::interval,
        case when g.i <= 2 then null else timestamptz '2026-10-02 00:00:00' end, 'untreated'
      from devices d, generate_series(1, 4) g(i) where d.sn like 'SHAPE-AL-%'`);
    const alarms = '/device/alarmlist?device=shape-al-';
    expect([await total(`${alarms}&level=1`), await total(`${alarms}&level=2`)]).toEqual([4, 4]);
    expect([await total(`${alarms}1`), await total(`${alarms}2&level=2`)]).toEqual([4, 2]);
    expect([await total(`${alarms}&activity=active`), await total(`${alarms}&activity=ended`), await total(alarms)]).toEqual([4, 4, 8]);
    expect(await total(`${alarms}&activity=active&level=2`)).toBe(2);
    expect(await total(`${alarms}${window('2026-10-01T02:00:00Z', '2026-10-01T04:00:00Z')}`)).toBe(4);
    expect(await total('/device/alarmlist?device=shape-al-&level=1&activity=ended')).toBe(2);
    await db.execute(sql`delete from devices where sn like 'SHAPE-AL-%'`);
  });

  it('sorts a few matches or walks the index past the rest: the same devices and alarms either way', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    // 10,050 devices, all but 30 online: "online" matches more than the count's cap (the list
    // walks the last-seen index's online range), "offline" 30 (found first, then sorted).
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path, online)
      select 'MIRROR-' || lpad(i::text, 5, '0'), 'Mirror ' || i, ${typeId}, '/1/', i % 335 <> 0
      from generate_series(1, 10050) i`);
    await db.execute(sql`
      update device_presence p set last_seen_at = case when d.id % 11 = 0 then null
        else timestamptz '2026-11-21 08:00:00' + ((d.id * 7919 % 5000) || ' seconds')::interval end
      from devices d where d.id = p.device_id and d.sn like 'MIRROR-%'`);
    const expected = async (online: boolean, order: 'asc' | 'desc', offset: number, limit: number) => {
      const dir = sql.raw(order === 'asc' ? 'asc nulls first' : 'desc nulls last');
      const res = await db.execute(sql`
        select d.id from devices d join device_presence p on p.device_id = d.id
        where d.sn like 'MIRROR-%' and d.online = ${online}
        order by p.last_seen_at ${dir}, d.id ${dir} limit ${limit} offset ${offset}`);
      return (res as unknown as { rows: { id: number }[] }).rows.map((r) => r.id);
    };
    const page = async (online: boolean, order: 'asc' | 'desc', pageNo: number, limit: number) => {
      const res = await ok('admin', 'GET', `/device/list?q=mirror-&online=${online}&sort=lastSeenAt&order=${order}&limit=${limit}&page=${pageNo}`);
      return { ...res, ids: (res.items as { id: number }[]).map((d) => d.id) };
    };
    for (const order of ['asc', 'desc'] as const) {
      const first = await page(true, order, 1, 20);
      expect(first).toMatchObject({ total: 10_000, exact: false });
      expect(first.ids, `online ${order}`).toEqual(await expected(true, order, 0, 20));
      expect((await page(true, order, 300, 20)).ids, `online ${order} page 300`).toEqual(await expected(true, order, 5980, 20));
      const offline = await page(false, order, 2, 20);
      expect(offline).toMatchObject({ total: 30, exact: true });
      expect(offline.ids, `offline ${order}`).toEqual(await expected(false, order, 20, 20));
    }
    // Alarms alike: the devices a text names have more alarms than the cap (the order's index is
    // walked) or, of one level, a few (read first and sorted).
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, state)
      select d.id, 'mirror', 'rule', '01010001', case when right(d.sn, 5)::int % 200 = 0 then 4 else 1 end,
        timestamptz '2026-11-20 11:00:00' + ((d.id * 7919 % 3000) || ' seconds')::interval, 'untreated'
      from devices d where d.sn like 'MIRROR-%'`);
    const expectedAlarms = async (level: number | undefined, offset: number, limit: number) => {
      const res = await db.execute(sql`
        select a.id from alarms a join devices d on d.id = a.device_id
        where d.sn like 'MIRROR-%' ${level ? sql`and a.level = ${level}` : sql``}
        order by d.sn desc, a.id desc limit ${limit} offset ${offset}`);
      // (bigint: text on PostgreSQL)
      return (res as unknown as { rows: { id: number | string }[] }).rows.map((r) => Number(r.id));
    };
    const alarmPage = async (query: string) =>
      ((await ok('admin', 'GET', `/device/alarmlist?device=mirror-&sort=device&order=desc&${query}`)).items as { id: number }[]).map((a) => a.id);
    expect(await ok('admin', 'GET', '/device/alarmlist?device=mirror-&limit=10')).toMatchObject({ total: 10_000, exact: false });
    expect(await alarmPage('limit=20&page=1')).toEqual(await expectedAlarms(undefined, 0, 20));
    expect(await alarmPage('limit=20&page=300')).toEqual(await expectedAlarms(undefined, 5980, 20));
    expect(await ok('admin', 'GET', '/device/alarmlist?device=mirror-&level=4&limit=10')).toMatchObject({ total: 50, exact: true });
    expect(await alarmPage('level=4&limit=20&page=2')).toEqual(await expectedAlarms(4, 20, 20));

    // A state changed by any statement (ingestion's batch, the start-up sweep) moves the device to
    // the other state's list at once.
    await db.execute(sql`update devices set online = not online where sn in ('MIRROR-00001', 'MIRROR-00335')`);
    const offline = await ok('admin', 'GET', '/device/list?q=mirror-&online=false&sort=lastSeenAt&order=asc&limit=100');
    expect(offline).toMatchObject({ total: 30, exact: true });
    const sns = (offline.items as { sn: string }[]).map((d) => d.sn);
    expect(sns).toContain('MIRROR-00001');
    expect(sns).not.toContain('MIRROR-00335');
    const online = await ok('admin', 'GET', '/device/list?q=mirror-00335&online=true&sort=lastSeenAt');
    expect(online).toMatchObject({ total: 1 });
    const drift = (await db.execute(sql`
      select count(*)::int as n from devices d join device_presence p on p.device_id = d.id
      where d.sn like 'MIRROR-%' and p.online is distinct from d.online`)) as unknown as { rows: { n: number }[] };
    expect(drift.rows[0]?.n).toBe(0);
    await db.execute(sql`delete from devices where sn like 'MIRROR-%'`);
  });

  it('walks a list to its end by `after` / `next`: the rows of every page, once each, in order', async () => {
    const db = t.database.db;
    // 130 log rows in one millisecond, a microsecond apart, and 20 sharing one instant: a cursor
    // rounded to the millisecond would skip or repeat them.
    await db.execute(sql`
      insert into operation_logs (username, user_path, role, action, entity, result, created_at)
      select 'walker', '/1/', 'SUPERADMIN', 'device.edit', 'device', 'success',
        timestamptz '2026-11-20 10:00:00.123' + (least(i, 110) || ' microseconds')::interval
      from generate_series(1, 130) i`);
    await db.execute(sql`
      insert into login_logs (username, result, created_at)
      select 'walker', 'success', timestamptz '2026-11-20 10:00:00.5' + ((i / 3) || ' microseconds')::interval
      from generate_series(1, 75) i`);
    const walk = async (who: string, path: string, limit: number) => {
      const ids: number[] = [];
      let next: string | undefined;
      let pages = 0;
      do {
        const res = await ok(who, 'GET', `${path}&limit=${limit}${next ? `&after=${encodeURIComponent(next)}` : ''}`);
        ids.push(...res.items.map((r: { id: number }) => r.id));
        next = res.next;
        pages++;
      } while (next && pages < 100);
      return ids;
    };
    const byOffset = async (who: string, path: string) => (await ok(who, 'GET', `${path}&limit=200`)).items.map((r: { id: number }) => r.id);
    // Page after page by offset (past the first page the rows are chosen by their ids first).
    const byPages = async (who: string, path: string, limit: number) => {
      const ids: number[] = [];
      for (let page = 1; page < 100; page++) {
        const items = (await ok(who, 'GET', `${path}&limit=${limit}&page=${page}`)).items as { id: number }[];
        ids.push(...items.map((r) => r.id));
        if (items.length < limit) break;
      }
      return ids;
    };

    for (const order of ['desc', 'asc']) {
      const ops = `/logs/list?username=walker&order=${order}`;
      const walked = await walk('admin', ops, 40);
      expect(walked).toHaveLength(130);
      expect(walked).toEqual(await byOffset('admin', ops));
      expect(await byPages('admin', ops, 40)).toEqual(walked);
      const logins = `/logs/loginlist?username=walker&order=${order}`;
      const walkedLogins = await walk('admin', logins, 20);
      expect(walkedLogins).toEqual(await byOffset('admin', logins));
      expect(await byPages('admin', logins, 20)).toEqual(walkedLogins);
    }
    // The last page has no `next`; a page that ends exactly at the end has none either.
    const exact = await ok('admin', 'GET', '/logs/list?username=walker&limit=130');
    expect(exact.items).toHaveLength(130);
    expect(exact.next).toBeUndefined();

    // Devices, by every sort of the list, both ways; last seen with devices never seen (null).
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path, warning_level, created_at)
      select 'WALK-' || lpad(i::text, 3, '0'), 'Walk ' || (i % 7), ${typeId}, '/1/', i % 3,
        timestamptz '2026-11-20 10:00:00' + ((i / 4) || ' microseconds')::interval
      from generate_series(1, 61) i`);
    await db.execute(sql`
      update device_presence p set last_seen_at = timestamptz '2026-11-21 08:00:00' + ((d.id % 5) || ' seconds')::interval
      from devices d where d.id = p.device_id and d.sn like 'WALK-%' and d.id % 3 <> 0`);
    for (const sort of ['createdAt', 'updatedAt', 'name', 'sn', 'warningLevel', 'id', 'lastSeenAt']) {
      for (const order of ['desc', 'asc']) {
        const path = `/device/list?q=walk-&sort=${sort}&order=${order}`;
        const walked = await walk('admin', path, 7);
        expect(walked, `${sort} ${order}`).toHaveLength(61);
        expect(walked, `${sort} ${order}`).toEqual(await byOffset('admin', path));
      }
    }
    // The cursor keeps the caller's scope: the agent walks only what it sees.
    expect(await walk('agent', '/device/list?q=walk-', 5)).toEqual([]);

    // Alarms by every sort both ways (ended and processed are null for some: nulls last), and the
    // device log (newest first).
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, ended_at, processed_at, state)
      select d.id, 'walk', 'rule', '01010001', 1 + d.id % 4,
        timestamptz '2026-11-20 11:00:00' + ((g.i / 2) || ' microseconds')::interval,
        case when g.i % 3 = 0 then null else timestamptz '2026-11-20 12:00:00' + ((g.i % 4) || ' seconds')::interval end,
        case when g.i % 2 = 0 then null else timestamptz '2026-11-20 13:00:00' end,
        case when g.i % 2 = 0 then 'untreated' else 'processed' end
      from devices d, generate_series(1, 2) g(i) where d.sn like 'WALK-%'`);
    for (const sort of ['startedAt', 'level', 'endedAt', 'processedAt', 'device']) {
      for (const order of ['desc', 'asc']) {
        const path = `/device/alarmlist?device=walk-&sort=${sort}&order=${order}`;
        const walked = await walk('admin', path, 9);
        expect(walked, `alarms ${sort} ${order}`).toHaveLength(122);
        expect(walked, `alarms ${sort} ${order}`).toEqual(await byOffset('admin', path));
        expect(await byPages('admin', path, 9), `alarms ${sort} ${order} by page`).toEqual(walked);
      }
    }
    await db.execute(sql`
      insert into device_logs (sn, kind, owner_path, created_at)
      select 'WALK-LOG', 'rejected', '/1/', timestamptz '2026-11-20 10:00:00' + ((i / 5) || ' microseconds')::interval
      from generate_series(1, 47) i`);
    const deviceLogs = '/logs/devicelogs?sn=WALK-LOG';
    expect(await walk('admin', deviceLogs, 10)).toHaveLength(47);
    expect(await walk('admin', deviceLogs, 10)).toEqual(await byOffset('admin', deviceLogs));
    expect(await byPages('admin', deviceLogs, 10)).toEqual(await byOffset('admin', deviceLogs));

    // A cursor whose following rows are gone answers an empty page without `next`.
    const allButOne = await ok('admin', 'GET', '/device/list?q=walk-&sort=sn&order=asc&limit=60');
    await db.execute(sql`delete from devices where sn = 'WALK-061'`);
    const beyond = await ok('admin', 'GET', `/device/list?q=walk-&sort=sn&order=asc&after=${encodeURIComponent(allButOne.next)}`);
    expect(beyond).toMatchObject({ total: 60, items: [] });
    expect(beyond.next).toBeUndefined();

    // A cursor that is not one, or that was made for another sort, is refused by name.
    const first = await ok('admin', 'GET', '/device/list?q=walk-&sort=name&limit=5');
    const refused = async (path: string) => {
      const res = await call('admin', 'GET', path);
      expect(res.code, path).toBe(40000);
      expect((res.data as { field?: string } | null)?.field, path).toBe('after');
    };
    await refused(`/device/list?q=walk-&sort=sn&after=${encodeURIComponent(first.next)}`);
    await refused(`/device/list?q=walk-&sort=name&order=asc&after=${encodeURIComponent(first.next)}`);
    await refused('/device/list?after=not%20a%20cursor');
    await refused(`/logs/list?after=${Buffer.from('["createdAt","desc","2026-02-30T10:00:00.000000Z",1]').toString('base64url')}`);
    await refused(`/logs/list?after=${Buffer.from('["createdAt","desc",null,1]').toString('base64url')}`);
    await refused(`/device/list?sort=id&after=${Buffer.from('["id","desc","1; drop table devices",1]').toString('base64url')}`);
  });
});
