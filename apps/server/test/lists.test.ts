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
    const failures = await ok('admin', 'GET', '/logs/list?result=failure');
    expect(failures).toMatchObject({ total: 10, exact: true });
    // The username filter takes the whole name, whatever its case.
    expect(await ok('admin', 'GET', '/logs/list?username=BULK&result=failure')).toMatchObject({ total: 10, exact: true });
    expect(await ok('admin', 'GET', '/logs/list?username=bul')).toMatchObject({ total: 0, exact: true });
    // The last page the pager offers still answers rows.
    expect((await ok('admin', 'GET', '/logs/list?limit=50&page=200')).items).toHaveLength(50);
    // A capped count is remembered for a few seconds (fifty users on the default view cost one
    // count, not fifty): rows removed behind the API's back still show as 10,000+ for now…
    expect(await ok('admin', 'GET', '/logs/list?limit=20')).toMatchObject({ total: 10_000, exact: false });
    await t.database.db.execute(sql`delete from operation_logs where username = 'bulk'`);
    const remembered = await ok('admin', 'GET', '/logs/list?limit=20&page=2');
    expect(remembered).toMatchObject({ total: 10_000, exact: false });
    expect(remembered.items).toHaveLength(0);
    // …and any change made through the API makes every list count again at once.
    await ok('admin', 'POST', '/project/addproject', { name: 'Counted again' });
    const fresh = await ok('admin', 'GET', '/logs/list?limit=20');
    expect(fresh.exact).toBe(true);
    expect(fresh.total).toBe(fresh.items.length);
    expect(fresh.items[0]).toMatchObject({ action: 'project.add' });
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

  it('a remembered total is counted again after any change to what it matches, whoever makes it', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    const rowsOf = async <R>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: R[] }).rows;
    const [{ path: agentPath }] = (await rowsOf<{ path: string }>(sql`select path from users where id = ${agentId}`)) as [{ path: string }];
    const total = async (who: string, query = '') => (await ok(who, 'GET', `/device/list?q=vt-${query}`)).total as number;
    const version = async () =>
      Number((await rowsOf<{ version: string }>(sql`select version from list_versions where name = 'devices'`))[0]!.version);

    await ok('agent', 'POST', '/device/add', { typeId, name: 'Versioned 1', sn: 'VT-1' });
    expect(await total('agent')).toBe(1);
    expect(await total('agent')).toBe(1);
    // The total is remembered, not counted per request: a row slipped in with the triggers off
    // (what no statement of ours can do) goes unseen…
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into devices (sn, name, type_id, owner_path) values ('VT-GHOST', 'Ghost', ${typeId}, ${agentPath})`);
    });
    expect(await total('agent')).toBe(1);
    // …while any statement that can change the matches, from any process or script, moves the
    // devices' counter in its own transaction and the next request counts again.
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path) values ('VT-2', 'Versioned 2', ${typeId}, ${agentPath})`);
    expect(await total('agent')).toBe(3);
    await db.execute(sql`delete from devices where sn = 'VT-GHOST'`);
    expect(await total('agent')).toBe(2);
    await db.execute(sql`update devices set sn = 'RENAMED-2' where sn = 'VT-2'`);
    expect(await total('agent')).toBe(1);

    // The caller's scope: a project shared with the agent, then taken back; a project handed over.
    const project = await ok('admin', 'POST', '/project/addproject', { name: 'Versioned site' });
    await ok('admin', 'POST', '/device/add', { typeId, name: 'In versioned site', sn: 'VT-SITE', projectId: project.id });
    expect(await total('admin')).toBe(2);
    expect(await total('agent')).toBe(1);
    await db.execute(sql`insert into project_users (project_id, user_id) values (${project.id}, ${agentId})`);
    expect(await total('agent')).toBe(2);
    await db.execute(sql`delete from project_users where project_id = ${project.id}`);
    expect(await total('agent')).toBe(1);
    await db.execute(sql`update projects set owner_path = ${agentPath} where id = ${project.id}`);
    expect(await total('agent')).toBe(2);
    await db.execute(sql`update devices set enabled = false where sn = 'VT-SITE'`);
    expect(await total('agent', '&enabled=false')).toBe(1);

    // What devices write (online, position, warning level) does not move the counter, so
    // ingestion does not make every list count again; totals filtered on those are always counted.
    const before = await version();
    expect(await total('agent', '&online=true')).toBe(0);
    await db.execute(sql`update devices set online = true, lng = 1, lat = 2, warning_level = 2 where sn = 'VT-1'`);
    expect(await version()).toBe(before);
    expect(await total('agent', '&online=true')).toBe(1);
    expect(await total('agent', '&warningLevel=2')).toBe(1);
  });

  it('a list filtered on what devices report counts inside its page: every read path, a page past the end, past the cap', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path, online, warning_level)
      select 'LIVE-' || lpad(i::text, 2, '0'), 'Live ' || i, ${typeId}, '/1/', i % 3 = 0, case when i % 3 = 0 then 3 else 0 end
      from generate_series(1, 36) i`);
    const live = (q: string) => ok('admin', 'GET', `/device/list?q=live-&online=true&${q}`);
    const first = await live('limit=5');
    expect(first).toMatchObject({ total: 12, exact: true });
    expect(first.items.map((d: { sn: string }) => d.sn)).toEqual(['LIVE-36', 'LIVE-33', 'LIVE-30', 'LIVE-27', 'LIVE-24']);
    // By offset, after a cursor, sorted by last seen (the joined read): the same total.
    expect(await live('limit=5&page=2')).toMatchObject({ total: 12, exact: true, items: [{ sn: 'LIVE-21' }, {}, {}, {}, {}] });
    expect(await live(`limit=5&after=${encodeURIComponent(first.next)}`)).toMatchObject({ total: 12, items: [{ sn: 'LIVE-21' }, {}, {}, {}, {}] });
    expect(await live('limit=5&sort=lastSeenAt')).toMatchObject({ total: 12, exact: true });
    expect(await ok('admin', 'GET', '/device/list?q=live-&warningLevel=3&limit=5')).toMatchObject({ total: 12, exact: true });
    // A page past the end has no row to carry the total: it is counted alone.
    expect(await live('limit=5&page=4')).toMatchObject({ total: 12, exact: true, items: [] });
    // What devices report changes the total at once (no counter moves for it).
    await db.execute(sql`update devices set online = false where sn = 'LIVE-36'`);
    expect(await live('limit=5')).toMatchObject({ total: 11, items: [{ sn: 'LIVE-33' }, {}, {}, {}, {}] });
    // Past the cap: "10,000+", then remembered as such for a few seconds.
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path, online)
      select 'MANY-' || lpad(i::text, 5, '0'), 'Many ' || i, ${typeId}, '/1/', true from generate_series(1, 10050) i`);
    const many = (q = '') => ok('admin', 'GET', `/device/list?q=many-&online=true&limit=10${q}`);
    expect(await many()).toMatchObject({ total: 10_000, exact: false, items: [{ sn: 'MANY-10050' }, {}, {}, {}, {}, {}, {}, {}, {}, {}] });
    await db.execute(sql`delete from devices where sn like 'MANY-%' and sn > 'MANY-00100'`);
    expect(await many()).toMatchObject({ total: 10_000, exact: false, items: [{ sn: 'MANY-00100' }, {}, {}, {}, {}, {}, {}, {}, {}, {}] });
    await db.execute(sql`delete from devices where sn like 'MANY-%' or sn like 'LIVE-%'`);
  });

  it('an alarm total is remembered until an alarm or a device changes, and moves once per transaction', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    const rowsOf = async <R>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: R[] }).rows;
    const [{ path: agentPath }] = (await rowsOf<{ path: string }>(sql`select path from users where id = ${agentId}`)) as [{ path: string }];
    const version = async () =>
      Number((await rowsOf<{ version: string }>(sql`select version from list_versions where name = 'alarms'`))[0]!.version);
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path) values ('RT-1', 'Remembered 1', ${typeId}, ${agentPath}), ('RT-2', 'Remembered 2', ${typeId}, '/1/')`);
    // The alarm's scope is copied from its device by a trigger (migration 0030).
    const alarm = (sn: string, key: string) => sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, state)
      select id, ${key}, 'rule', '01010001', 2, now(), 'untreated' from devices where sn = ${sn}`;
    await db.execute(alarm('RT-1', 'a'));
    await db.execute(alarm('RT-2', 'a'));
    const total = async (who: string, query = '') => (await ok(who, 'GET', `/device/alarmlist?device=rt-${query}`)).total as number;
    expect([await total('agent'), await total('admin')]).toEqual([1, 2]);
    expect(await total('agent')).toBe(1);
    // Remembered, not counted per request: an alarm slipped in with the triggers off goes unseen…
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      // With no trigger to copy it, the writer gives the alarm its device's scope itself.
      await tx.execute(sql`
        insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, state, owner_path, project_id)
        select id, 'ghost', 'rule', '01010001', 2, now(), 'untreated', owner_path, project_id from devices where sn = 'RT-1'`);
    });
    expect(await total('agent')).toBe(1);
    // …and any change to alarms, by any statement, is counted at the next request: a new alarm,
    // one that ends (the active filter), one processed (the state filter), a deleted one.
    await db.execute(alarm('RT-1', 'b'));
    expect(await total('agent')).toBe(3);
    expect(await total('agent', '&activity=active')).toBe(3);
    await db.execute(sql`update alarms set ended_at = now() where rule_key = 'b'`);
    expect(await total('agent', '&activity=active')).toBe(2);
    expect(await total('agent', '&state=untreated')).toBe(3);
    await db.execute(sql`update alarms set state = 'processed' where rule_key = 'ghost'`);
    expect(await total('agent', '&state=untreated')).toBe(2);
    await db.execute(sql`delete from alarms where rule_key = 'ghost'`);
    expect(await total('agent')).toBe(2);
    // A change to the devices (the agent's device handed to the administrator) counts again too.
    await db.execute(sql`update devices set owner_path = '/1/' where sn = 'RT-1'`);
    expect([await total('agent'), await total('admin')]).toEqual([0, 3]);
    // The counter moves once per transaction, however many alarms it writes, and at its commit:
    // a transaction rolled back leaves it where it was.
    const before = await version();
    await db.transaction(async (tx) => {
      await tx.execute(alarm('RT-2', 'c'));
      await tx.execute(alarm('RT-2', 'd'));
      await tx.execute(sql`update alarms set level = 3 where rule_key in ('c', 'd')`);
    });
    expect(await version()).toBe(before + 1);
    await db
      .transaction(async (tx) => {
        await tx.execute(alarm('RT-2', 'e'));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await version()).toBe(before + 1);
    expect(await total('admin')).toBe(5);
    await db.execute(sql`delete from devices where sn like 'RT-%'`);
    expect(await total('admin')).toBe(0);
  });

  it("a scoped caller's projects and an alarm list's device text are resolved once, and again after any change to them", async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    const project = await ok('admin', 'POST', '/project/addproject', { name: 'Resolved site' });
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path, project_id) values ('RES-1', 'Resolved 1', ${typeId}, '/1/', ${project.id})`);
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, state)
      select id, 'res', 'rule', '01010001', 2, now(), 'untreated' from devices where sn = 'RES-1'`);
    const deviceSns = async () => (await ok('agent', 'GET', '/device/list?q=res-')).items.map((d: { sn: string }) => d.sn);
    const alarmSns = async (who: string, device = 'res-') =>
      (await ok(who, 'GET', `/device/alarmlist?device=${device}`)).items.map((a: { sn: string }) => a.sn);
    expect(await deviceSns()).toEqual([]);
    expect(await alarmSns('agent')).toEqual([]);
    expect(await alarmSns('admin')).toEqual(['RES-1']);
    // Shared with the agent: its device and alarm lists see the project at once.
    await db.execute(sql`insert into project_users (project_id, user_id) values (${project.id}, ${agentId})`);
    expect(await deviceSns()).toEqual(['RES-1']);
    expect(await alarmSns('agent')).toEqual(['RES-1']);
    // Resolved once, not per request: the share taken back with the triggers off (what no
    // statement of ours can do) goes unseen…
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`delete from project_users where project_id = ${project.id}`);
    });
    expect(await deviceSns()).toEqual(['RES-1']);
    expect(await alarmSns('agent')).toEqual(['RES-1']);
    // …until any change to devices or projects moves the counter: resolved again.
    await db.execute(sql`update projects set name = 'Resolved again' where id = ${project.id}`);
    expect(await deviceSns()).toEqual([]);
    expect(await alarmSns('agent')).toEqual([]);

    // The device text: a device renamed is found by its new SN at once, not by its old one.
    await db.execute(sql`update devices set sn = 'MOVED-1' where sn = 'RES-1'`);
    expect(await alarmSns('admin')).toEqual([]);
    expect(await alarmSns('admin', 'moved-')).toEqual(['MOVED-1']);
    // A text that names more devices than are resolved apart is matched in the page's statement.
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path) select 'MANY-' || lpad(i::text, 4, '0'), 'Many ' || i, ${typeId}, '/1/' from generate_series(1, 1005) i`);
    await db.execute(sql`
      insert into alarms (device_id, rule_key, source, semaphore_id, level, started_at, state)
      select id, 'many', 'rule', '01010001', 2, now(), 'untreated' from devices where sn in ('MANY-0002', 'MANY-1004')`);
    const many = await ok('admin', 'GET', '/device/alarmlist?device=many-');
    expect(many.total).toBe(2);
    expect(many.items.map((a: { sn: string }) => a.sn).sort()).toEqual(['MANY-0002', 'MANY-1004']);
    expect((await ok('admin', 'GET', '/device/alarmlist?device=many-1')).items.map((a: { sn: string }) => a.sn)).toEqual(['MANY-1004']);
    await db.execute(sql`delete from devices where sn like 'MANY-%' or sn = 'MOVED-1'`);
  });

  it('a login log total is remembered until a login log is written or a user moves', async () => {
    const db = t.database.db;
    const rowsOf = async <R>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: R[] }).rows;
    const [{ path: agentPath }] = (await rowsOf<{ path: string }>(sql`select path from users where id = ${agentId}`)) as [{ path: string }];
    const version = async () =>
      Number((await rowsOf<{ version: string }>(sql`select version from list_versions where name = 'login_logs'`))[0]!.version);
    // A user of the agent's subtree who logged in three times.
    const userId = await t.createUser({ username: 'lt-one', password: 'lt-one-pass-1', role: 'ADMIN' });
    await db.execute(sql`update users set parent_id = ${agentId}, path = ${agentPath} || id || '/' where id = ${userId}`);
    const login = (result = 'success') =>
      sql`insert into login_logs (user_id, username, result) values (${userId}, 'lt-one', ${result})`;
    for (let i = 0; i < 3; i++) await db.execute(login());
    const total = async (who: string, query = '') => (await ok(who, 'GET', `/logs/loginlist?username=LT-ONE${query}`)).total as number;
    expect([await total('admin'), await total('agent')]).toEqual([3, 3]);
    expect([await total('admin'), await total('agent')]).toEqual([3, 3]);
    // Remembered, not counted per request: a row slipped in with the triggers off goes unseen…
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(login('failure'));
    });
    expect(await total('admin')).toBe(3);
    // …while every statement that writes login logs moves the counter: a row inserted by a script,
    // a failed login through the API (the page shows it at once), a row deleted.
    await db.execute(login());
    expect([await total('admin'), await total('agent')]).toEqual([5, 5]);
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { username: 'lt-one', password: 'wrong-pass-1' } });
    expect(refused.json().code).not.toBe(20000);
    const afterFailure = await ok('admin', 'GET', '/logs/loginlist?username=lt-one&result=failure');
    expect(afterFailure).toMatchObject({ total: 2, exact: true, items: [{ result: 'failure' }, { result: 'failure' }] });
    await db.execute(sql`delete from login_logs where username = 'lt-one' and result = 'failure'`);
    expect([await total('admin'), await total('agent'), await total('agent', '&result=failure')]).toEqual([4, 4, 0]);
    // A user moved out of the agent's subtree takes its logs out of the agent's list, and back in.
    const before = await version();
    await db.execute(sql`update users set path = '/1/' || id || '/' where id = ${userId}`);
    expect(await version()).toBe(before + 1);
    expect([await total('admin'), await total('agent')]).toEqual([4, 0]);
    await db.execute(sql`update users set path = ${agentPath} || id || '/' where id = ${userId}`);
    expect(await total('agent')).toBe(4);
    // A deleted user's logs stay (its name on them) but no longer belong to anyone's subtree.
    await db.execute(sql`delete from users where id = ${userId}`);
    expect([await total('admin'), await total('agent')]).toEqual([4, 0]);
    // What other users' rows change (not their paths) leaves the counter where it was.
    const still = await version();
    await db.execute(sql`update users set corporate_name = 'Renamed' where id = ${agentId}`);
    expect(await version()).toBe(still);
  });

  it('a project total is remembered until a project, its name, its owner or its members change', async () => {
    const db = t.database.db;
    const rowsOf = async <R>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: R[] }).rows;
    const [{ path: agentPath }] = (await rowsOf<{ path: string }>(sql`select path from users where id = ${agentId}`)) as [{ path: string }];
    const total = async (who: string, query = '') => (await ok(who, 'GET', `/project/list?name=pv-${query}`)).total as number;
    await db.execute(sql`insert into projects (name, owner_id, owner_path) values ('PV-1', ${agentId}, ${agentPath}), ('PV-2', 1, '/1/')`);
    expect([await total('admin'), await total('agent')]).toEqual([2, 1]);
    expect([await total('admin'), await total('agent')]).toEqual([2, 1]);
    // Remembered, not counted per request: a row slipped in with the triggers off goes unseen…
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into projects (name, owner_id, owner_path) values ('PV-GHOST', 1, '/1/')`);
    });
    expect(await total('admin')).toBe(2);
    // …and every change to what the list matches is counted at the next request, whoever makes it.
    await db.execute(sql`insert into projects (name, owner_id, owner_path) values ('PV-3', 1, '/1/')`);
    expect(await total('admin')).toBe(4);
    await db.execute(sql`update projects set name = 'Renamed' where name = 'PV-GHOST'`);
    expect(await total('admin')).toBe(3);
    expect(await total('admin', `&ownerId=${agentId}`)).toBe(1);
    await db.execute(sql`update projects set owner_id = ${agentId} where name = 'PV-3'`);
    expect(await total('admin', `&ownerId=${agentId}`)).toBe(2);
    // The agent's scope: a project shared with it, then the agent moved out of its subtree's path.
    expect(await total('agent')).toBe(1);
    const shared = (await rowsOf<{ id: number }>(sql`select id from projects where name = 'PV-2'`))[0]!.id;
    await db.execute(sql`insert into project_users (project_id, user_id) values (${shared}, ${agentId})`);
    expect(await total('agent')).toBe(2);
    await db.execute(sql`delete from project_users where project_id = ${shared}`);
    expect(await total('agent')).toBe(1);
    await db.execute(sql`delete from projects where name like 'PV-%' or name = 'Renamed'`);
    expect([await total('admin'), await total('agent')]).toEqual([0, 0]);
  });

  it('a deep device page starts at a remembered row, read by offset again once the list changes', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path)
      select 'ANC-' || lpad(i::text, 3, '0'), 'Anchor ' || lpad(i::text, 3, '0'), ${typeId}, '/1/' from generate_series(1, 60) i`);
    const sns = async (page: number, query = '') =>
      (await ok('admin', 'GET', `/device/list?q=anc-&limit=10&page=${page}${query}`)).items.map((d: { sn: string }) => d.sn);
    // One created_at: newest id first.
    const all = Array.from({ length: 60 }, (_, i) => `ANC-${String(60 - i).padStart(3, '0')}`);
    expect(await sns(3)).toEqual(all.slice(20, 30));
    expect(await sns(4)).toEqual(all.slice(30, 40));
    expect(await sns(3)).toEqual(all.slice(20, 30));
    expect(await sns(6)).toEqual(all.slice(50, 60));
    expect(await sns(7)).toEqual([]);
    // Pages 3 and 5 now start at remembered rows, not by offset: a device slipped in ahead of
    // them with the triggers off (what no statement of ours can do) does not shift them…
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into devices (sn, name, type_id, owner_path, created_at)
        values ('ANC-GHOST', 'Ghost', ${typeId}, '/1/', now() + interval '1 hour')`);
    });
    expect(await sns(3)).toEqual(all.slice(20, 30));
    expect(await sns(5)).toEqual(all.slice(40, 50));
    // …while any statement that changes the list moves the devices' counter: the pages are read
    // by offset again, and shifted by both devices.
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path, created_at)
      values ('ANC-NEW', 'New', ${typeId}, '/1/', now() + interval '2 hours')`);
    const now = ['ANC-NEW', 'ANC-GHOST', ...all];
    expect(await sns(3)).toEqual(now.slice(20, 30));
    expect(await sns(5)).toEqual(now.slice(40, 50));
    await db.execute(sql`update devices set name = 'Anchor 000' where sn = 'ANC-NEW'`);
    expect(await sns(5)).toEqual(now.slice(40, 50));

    // Sorted by name, ascending: every page once, in order, asked in any order.
    const byName = ['ANC-GHOST', 'ANC-NEW', ...all.slice().reverse()];
    byName.sort((a, b) => (a === 'ANC-GHOST' ? 'Ghost' : a === 'ANC-NEW' ? 'Anchor 000' : `Anchor ${a.slice(4)}`).localeCompare(b === 'ANC-GHOST' ? 'Ghost' : b === 'ANC-NEW' ? 'Anchor 000' : `Anchor ${b.slice(4)}`));
    for (const page of [2, 4, 3, 6, 5, 4, 7]) expect(await sns(page, '&sort=name&order=asc')).toEqual(byName.slice((page - 1) * 10, page * 10));

    // A device's last update moves no counter: a list sorted by it is always read by offset.
    expect(await sns(3, '&sort=updatedAt')).toHaveLength(10);
    const third = await sns(3, '&sort=updatedAt');
    await db.execute(sql`update devices set updated_at = now() + interval '3 hours' where sn = ${third[0]}`);
    const after = await sns(3, '&sort=updatedAt');
    // Shifted by one: the device before the page, then the rest of the page as it was.
    expect(third).not.toContain(after[0]);
    expect(after.slice(1)).toEqual(third.slice(1));
  });

  it('a device page asked again is read by the ids it had, fresh, until the list changes', async () => {
    const db = t.database.db;
    const typeId = (await ok('admin', 'GET', '/devicetype/list?code=BMU')).items[0].id;
    await db.execute(sql`
      insert into devices (sn, name, type_id, owner_path)
      select 'REM-' || lpad(i::text, 3, '0'), 'Remembered ' || i, ${typeId}, '/1/' from generate_series(1, 30) i`);
    type Row = { sn: string; address: string; online: boolean };
    const page = async (who: string, query: string) =>
      (await ok(who, 'GET', `/device/list?limit=10&${query}`)) as { total: number; items: Row[]; next?: string };
    const sns = (p: { items: Row[] }) => p.items.map((d) => d.sn);
    const all = Array.from({ length: 30 }, (_, i) => `REM-${String(30 - i).padStart(3, '0')}`);
    const first = await page('admin', 'q=rem-');
    expect(sns(first)).toEqual(all.slice(0, 10));
    expect(first.next).toBeDefined();
    // Other values of the same filter, another page, another caller: pages of their own.
    expect(sns(await page('admin', 'q=rem-01'))).toEqual(['REM-019', 'REM-018', 'REM-017', 'REM-016', 'REM-015', 'REM-014', 'REM-013', 'REM-012', 'REM-011', 'REM-010']);
    expect(sns(await page('admin', 'q=rem-&page=3'))).toEqual(all.slice(20, 30));
    expect(sns(await page('agent', 'q=rem-'))).toEqual([]);
    // Asked again, the page is its remembered ids' rows: a device slipped in ahead with the
    // triggers off (what no statement of ours can do) is not among them…
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into devices (sn, name, type_id, owner_path, created_at)
        values ('REM-GHOST', 'Ghost', ${typeId}, '/1/', now() + interval '1 hour')`);
    });
    // …but the rows are read anew: what devices report (online, address) moves no counter.
    await db.execute(sql`update devices set online = true, address = 'Bay 9' where sn = 'REM-029'`);
    const again = await page('admin', 'q=rem-');
    expect(sns(again)).toEqual(all.slice(0, 10));
    expect(again.items[1]).toMatchObject({ sn: 'REM-029', online: true, address: 'Bay 9' });
    expect(again.next).toBe(first.next);
    expect(sns(await page('admin', 'q=rem-&page=3'))).toEqual(all.slice(20, 30));
    expect(sns(await page('agent', 'q=rem-'))).toEqual([]);
    // Any statement that changes the list moves the devices' counter: read again, both devices in.
    await db.execute(sql`insert into devices (sn, name, type_id, owner_path, created_at)
      values ('REM-NEW', 'New', ${typeId}, '/1/', now() + interval '2 hours')`);
    const now = ['REM-NEW', 'REM-GHOST', ...all];
    expect(sns(await page('admin', 'q=rem-'))).toEqual(now.slice(0, 10));
    expect(sns(await page('admin', 'q=rem-&page=3'))).toEqual(now.slice(20, 30));
    // A device moved into the agent's subtree shows there at once.
    const agentPath = (await db.execute(sql`select path from users where id = ${agentId}`)) as unknown as { rows: { path: string }[] };
    await db.execute(sql`update devices set owner_path = ${agentPath.rows[0]!.path} where sn = 'REM-007'`);
    expect(sns(await page('agent', 'q=rem-'))).toEqual(['REM-007']);
    await db.execute(sql`delete from devices where sn like 'REM-%'`);
    expect(sns(await page('admin', 'q=rem-'))).toEqual([]);
  });

  it('a deep operation-log page starts at a remembered row until a log is written or removed', async () => {
    const db = t.database.db;
    await db.execute(sql`
      insert into operation_logs (username, user_path, role, action, entity, entity_name, result, created_at)
      select 'anchored', '/1/', 'SUPERADMIN', 'device.edit', 'device', 'L' || lpad(i::text, 3, '0'), 'success',
        timestamptz '2026-01-01' + (i || ' minutes')::interval
      from generate_series(1, 60) i`);
    const names = async (page: number) =>
      (await ok('admin', 'GET', `/logs/list?username=anchored&limit=10&page=${page}`)).items.map((l: { entityName: string }) => l.entityName);
    const all = Array.from({ length: 60 }, (_, i) => `L${String(60 - i).padStart(3, '0')}`);
    expect(await names(3)).toEqual(all.slice(20, 30));
    expect(await names(4)).toEqual(all.slice(30, 40));
    expect(await names(3)).toEqual(all.slice(20, 30));
    // Anchored: a row slipped in with the triggers off goes unseen by pages 3 and 5…
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`insert into operation_logs (username, user_path, role, action, entity, entity_name, result, created_at)
        values ('anchored', '/1/', 'SUPERADMIN', 'device.edit', 'device', 'GHOST', 'success', timestamptz '2026-02-01')`);
    });
    expect(await names(3)).toEqual(all.slice(20, 30));
    expect(await names(5)).toEqual(all.slice(40, 50));
    // …a log written in a transaction moves the counter when it commits…
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into operation_logs (username, user_path, role, action, entity, entity_name, result, created_at)
        values ('anchored', '/1/', 'SUPERADMIN', 'device.edit', 'device', 'NEW', 'success', timestamptz '2026-02-02')`);
      await tx.execute(sql`insert into operation_logs (username, user_path, role, action, entity, entity_name, result, created_at)
        values ('someone', '/1/', 'SUPERADMIN', 'device.edit', 'device', 'OTHER', 'success', now())`);
    });
    const now = ['NEW', 'GHOST', ...all];
    expect(await names(3)).toEqual(now.slice(20, 30));
    expect(await names(5)).toEqual(now.slice(40, 50));
    // …and so does a deletion.
    await db.execute(sql`delete from operation_logs where entity_name in ('NEW', 'GHOST')`);
    expect(await names(5)).toEqual(all.slice(40, 50));
    expect(await names(3)).toEqual(all.slice(20, 30));
  });

  it('a device page built once per filter shape answers each request with its own values', async () => {
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
    expect(await sns('admin', 'q=shape-&warningLevel=1')).toEqual(['SHAPE-1', 'SHAPE-3', 'SHAPE-5']);
    // The caller's scope is a value too: the agent's page has the agent's devices only.
    expect(await sns('agent', 'q=shape-')).toEqual(['SHAPE-1', 'SHAPE-2', 'SHAPE-3']);
    expect(await sns('admin', 'q=shape-')).toHaveLength(6);
    // Pages of one shape: the limit and offset are values as well.
    expect(await sns('admin', 'q=shape-&limit=4&page=2')).toEqual(['SHAPE-5', 'SHAPE-6']);
    expect(await sns('admin', 'q=shape-&limit=2&page=2')).toEqual(['SHAPE-3', 'SHAPE-4']);
    await db.execute(sql`delete from devices where sn like 'SHAPE-%'`);
  });

  it('every list built once per shape answers each request with its own values', async () => {
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
