import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableName, sql } from 'drizzle-orm';
import { ErrorCode } from '@iot/contract';
import { LINE_COLUMNS } from '../src/modules/user/admin.repo.js';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/**
 * Ownership follows the user tree (issue #32): a user moved to another parent takes everything
 * its line owns along, and a project given to another owner takes its devices and SIM cards.
 * Asserted through the API, as the users concerned see it. Each test makes its own users.
 */
describe('owned rows follow their owners', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let adminRole: number;
  let seq = 0;
  const { call, ok } = apiAs(() => t, tok);

  /** A user with the ADMIN role under `parent` (the administrator by default), signed in as `name`. */
  const user = async (name: string, parent = 'admin', parentId?: number) => {
    const { id } = await ok(parent, 'POST', '/user/add', { username: name, password: 'owner-pass-1', type: 1, roleId: adminRole, ...(parentId ? { parentId } : {}) });
    tok[name] = await t.login(name, 'owner-pass-1');
    return id as number;
  };
  const basic = (d: { sn: string; secret: string }) => ({ authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` });

  beforeAll(async () => {
    t = await buildTestApp({ API_RATE_LIMIT: '0' });
    tok.admin = await t.login();
    const roles = (await ok('admin', 'GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[];
    adminRole = roles.find((r) => r.identification === 'ADMIN')!.id;
  });
  afterAll(() => t.close());

  it('every column naming an owner line is carried when a user moves', async () => {
    // A new table with an owner path that `movePaths` does not carry would stay with the old line.
    const columns = rowsOf<{ table_name: string; column_name: string }>(
      await t.database.db.execute(sql`select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and column_name like '%path'`),
    )
      .map((c) => `${c.table_name}.${c.column_name}`)
      // alarm_counts and the trend counters are derived from the alarms by triggers (migrations
      // 0049, 0068): carrying alarms.owner_path moves the counts with them (the next test).
      .filter((c) => !['users.path', 'alarm_counts.owner_path', 'alarm_trend_lines.path', 'alarm_trend_projects.owner_path'].includes(c));
    expect(LINE_COLUMNS.map((c) => `${getTableName(c.table)}.${c.name}`).sort()).toEqual(columns.sort());
  });

  it('a user moved to another agent takes its projects, devices, alarms, cards, orders, types, roles and logs along', async () => {
    const n = ++seq;
    const [a, b, s] = [`mv-a${n}`, `mv-b${n}`, `mv-s${n}`];
    const aId = await user(a);
    const bId = await user(b);
    const sId = await user(s, a, aId);
    const tag = `MV${n}X`;

    // What S owns: a device type with an alarm rule, a project with a device, a device of its own,
    // a SIM card in the project and an order for it, a role; an alarm and device logs by ingestion.
    const { id: typeId } = await ok(s, 'POST', '/devicetype/addtype', { code: `${tag}T`, name: `${tag} type` });
    await ok(s, 'POST', '/devicetype/addsetparam', { id: typeId, params: [{ semaphoreId: 'T', name: 'Temp', dataType: 'number', sort: 1 }] });
    await ok(s, 'POST', '/devicetype/addsetalarm', { id: typeId, rules: [{ semaphoreId: 'T', comparison: 'gt', threshold: 50, level: 3, message: 'Hot' }] });
    const { id: projectId } = await ok(s, 'POST', '/project/addproject', { name: `${tag} project` });
    const inProject = await ok(s, 'POST', '/device/add', { name: `${tag} rack`, sn: `${tag}-1`, typeId, projectId });
    await ok(s, 'POST', '/device/add', { name: `${tag} spare`, sn: `${tag}-2`, typeId });
    const iccid = `8986${String(n).padStart(16, '0')}`;
    const { id: cardId } = await ok(s, 'POST', '/card/addCard', { iccid, projectId });
    const { id: priceId } = await ok('admin', 'POST', '/card/addPrice', { plan: `${tag} plan`, unitPriceCents: 100 });
    await ok(s, 'POST', '/card/addCardOrder', { months: 1, priceId, cardIds: [cardId] });
    await ok(s, 'POST', '/role/add', { name: `${tag} role`, identification: `${tag}_ROLE` });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/telemetry',
      headers: basic({ sn: `${tag}-1`, secret: inProject.secret }),
      payload: { values: { T: 60 } },
    });
    expect(sent.json().code, sent.body).toBe(20000);

    /** What `who` sees of S's things, from each list and the device's details. */
    const view = async (who: string) => {
      const items = async (url: string) => {
        const r = await call(who, 'GET', url);
        return r.code === 20000 ? (r.data.items as Record<string, unknown>[]) : [];
      };
      const details = await call(who, 'GET', `/device/basic?id=${inProject.id}`);
      return {
        devices: (await items(`/device/list?q=${tag}&sort=sn&order=asc`)).map((d) => d.sn),
        details: details.code === 20000 ? details.data.sn : details.code,
        projects: (await items(`/project/list?name=${tag}`)).map((p) => p.name),
        alarms: (await items(`/device/alarmlist?device=${tag}`)).map((x) => x.deviceId),
        cards: (await items(`/card/getSimList?q=${iccid}`)).map((c) => c.iccid),
        orders: (await items(`/card/getCardOrderList?q=${iccid}`)).length,
        types: (await items(`/devicetype/list?code=${tag}T`)).map((x) => x.code),
        roles: (await items(`/role/getlist?name=${tag}`)).map((r) => r.name),
        deviceLogs: (await items(`/logs/devicelogs?sn=${tag}-1`)).length > 0,
        operations: (await items(`/logs/list?username=${s}`)).length > 0,
      };
    };
    const everything = {
      devices: [`${tag}-1`, `${tag}-2`],
      details: `${tag}-1`,
      projects: [`${tag} project`],
      alarms: [inProject.id],
      cards: [iccid],
      orders: 1,
      types: [`${tag}T`],
      roles: [`${tag} role`],
      deviceLogs: true,
      operations: true,
    };
    const nothing = { devices: [], details: ErrorCode.NOT_FOUND, projects: [], alarms: [], cards: [], orders: 0, types: [], roles: [], deviceLogs: false, operations: false };

    expect(await view(s)).toEqual(everything);
    expect(await view(a)).toEqual(everything);
    expect(await view(b)).toEqual(nothing);

    // A device connected before the move (MQTT keeps the registry row of its login) and
    // reporting after it: its log row goes to its owner's new line.
    const connected = await t.app.ingest.deviceOf(`${tag}-1`);
    await ok('admin', 'POST', '/user/edit', { id: sId, parentId: bId });
    await t.app.ingest.uplink(connected!, 'telemetry', { values: { T: 'not a number' } });
    expect((await ok(s, 'GET', `/logs/devicelogs?sn=${tag}-1&kind=rejected`)).items).toHaveLength(1);

    expect(await view(s)).toEqual(everything);
    expect(await view(b)).toEqual(everything);
    expect(await view(a)).toEqual(nothing);
    // The dashboard's alarm counters moved with the alarms: every counter row agrees with them.
    const drift = rowsOf(await t.database.db.execute(sql`
      select * from (select owner_path, coalesce(project_id, 0) as project_id, level, state, count(*)::int as n
                     from alarms group by 1, 2, 3, 4) x
      full join (select owner_path, project_id, level, state, n::int from alarm_counts where n <> 0) c
        using (owner_path, project_id, level, state)
      where x.n is distinct from c.n`));
    expect(drift).toEqual([]);
    // So did the trend's: a line row for every ancestor of an alarm's owner path, a project row.
    const bucket = sql`date_bin('15 minutes', a.started_at, timestamptz '2000-01-01 00:00:00+00')`;
    const lineDrift = rowsOf(await t.database.db.execute(sql`
      select * from (select p.path, ${bucket} as at, a.level, count(*)::int as n from alarms a
                     cross join lateral (select '/' as path union select left(a.owner_path, i) from generate_series(2, length(a.owner_path)) i
                                         where substr(a.owner_path, i, 1) = '/') p
                     group by 1, 2, 3) x
      full join (select path, at, level, n::int from alarm_trend_lines where n <> 0) c using (path, at, level)
      where x.n is distinct from c.n`));
    expect(lineDrift).toEqual([]);
    const projectDrift = rowsOf(await t.database.db.execute(sql`
      select * from (select a.project_id, ${bucket} as at, a.owner_path, a.level, count(*)::int as n from alarms a
                     where a.project_id is not null group by 1, 2, 3, 4) x
      full join (select project_id, at, owner_path, level, n::int from alarm_trend_projects where n <> 0) c
        using (project_id, at, owner_path, level)
      where x.n is distinct from c.n`));
    expect(projectDrift).toEqual([]);
    // S still manages its device and its card; A no longer can.
    await ok(s, 'POST', '/device/edit', { id: inProject.id, name: `${tag} rack 2` });
    await ok(s, 'POST', '/card/editCard', { id: cardId, remarks: 'still mine' });
    expect((await call(a, 'POST', '/device/edit', { id: inProject.id, name: 'taken' })).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('a project given to another owner takes its devices and SIM cards along', async () => {
    const n = ++seq;
    const [a, x, y] = [`po-a${n}`, `po-x${n}`, `po-y${n}`];
    const aId = await user(a);
    await user(x, a, aId);
    const yId = await user(y, a, aId);
    const tag = `PO${n}X`;
    const types = (await ok(x, 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[];
    const typeId = types.find((tp) => tp.code === 'BMU')!.id;
    const { id: projectId } = await ok(x, 'POST', '/project/addproject', { name: `${tag} project` });
    const device = await ok(x, 'POST', '/device/add', { name: `${tag} rack`, sn: `${tag}-1`, typeId, projectId });
    const iccid = `8987${String(n).padStart(16, '0')}`;
    const { id: cardId } = await ok(x, 'POST', '/card/addCard', { iccid, projectId });

    const view = async (who: string) => {
      const details = await call(who, 'GET', `/device/basic?id=${device.id}`);
      const cards = await call(who, 'GET', `/card/getSimList?q=${iccid}`);
      return { details: details.code === 20000 ? details.data.sn : details.code, cards: cards.data.items.map((c: { iccid: string }) => c.iccid) };
    };
    expect(await view(x)).toEqual({ details: `${tag}-1`, cards: [iccid] });
    expect(await view(y)).toEqual({ details: ErrorCode.NOT_FOUND, cards: [] });

    await ok(a, 'POST', '/project/editproject', { id: projectId, ownerId: yId });

    expect(await view(x)).toEqual({ details: ErrorCode.NOT_FOUND, cards: [] });
    expect(await view(y)).toEqual({ details: `${tag}-1`, cards: [iccid] });
    // The new owner manages them (a device of another line in its project would be read-only),
    // and the old one can no longer issue the device a secret.
    await ok(y, 'POST', '/device/edit', { id: device.id, name: `${tag} rack 2` });
    await ok(y, 'POST', '/card/editCard', { id: cardId, remarks: 'mine now' });
    expect((await call(x, 'POST', '/device/credential', { id: device.id })).code).toBe(ErrorCode.NOT_FOUND);
  });
});
