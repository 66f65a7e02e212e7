import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ErrorCode } from '@iot/contract';
import { bearer, buildTestApp, type TestApp } from './helpers.js';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/**
 * GET /map/positions (the fleet and project maps) against a hand-built fleet:
 *
 * users: admin (super), sub (/1/S/), other (/1/O/), nomap (device:list without map:view)
 * projects: P1 of sub (map on), P2 of sub (map off), P3 of other shared with sub, P4 of other
 * devices: a sub·P1 online level 3   b sub·P2 (map off)      c sub, no project
 *          d sub·P1 without position  e sub·P1 map mode 2   f other·P3 (shared with sub)
 *          g other·P4                 h admin, no project, second type
 */
describe('GET /map/positions', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const get = async (who: string, query = '') =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/map/positions${query}`, headers: bearer(tok[who]!) })).json() as {
      code: number;
      data: any;
    };
  /** The answer's devices by fixture name, in answer order. */
  // (The GPS test's own devices, named by SN, are left out.)
  const names = (data: { ids: number[] }) =>
    data.ids.map((id) => Object.keys(ids).find((k) => ids[k] === id && k.length === 1)).filter(Boolean);

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.database.db;
    const q = async <T = Record<string, unknown>>(s: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(s));
    ids.sub = await t.createUser({ username: 'map-sub', password: 'map-sub-pass', role: 'ADMIN' });
    ids.other = await t.createUser({ username: 'map-other', password: 'map-other-pass', role: 'ADMIN' });
    const [role] = await q<{ id: number }>(sql`insert into roles (name, identification) values ('No map', 'NOMAP') returning id`);
    await db.execute(sql`insert into role_permissions (role_id, permission_id)
      select ${role!.id}, id from permissions where identification in ('device:list', 'device:detail')`);
    ids.nomap = await t.createUser({ username: 'map-nomap', password: 'map-nomap-pass', role: 'NOMAP' });
    tok.admin = await t.login();
    tok.sub = await t.login('map-sub', 'map-sub-pass');
    tok.other = await t.login('map-other', 'map-other-pass');
    tok.nomap = await t.login('map-nomap', 'map-nomap-pass');

    const project = async (name: string, owner: number, path: string, map: boolean) =>
      (await q<{ id: number }>(sql`insert into projects (name, owner_id, owner_path, map) values (${name}, ${owner}, ${path}, ${map}) returning id`))[0]!.id;
    const sub = `/1/${ids.sub}/`;
    const other = `/1/${ids.other}/`;
    ids.P1 = await project('Harbour', ids.sub, sub, true);
    ids.P2 = await project('Hidden yard', ids.sub, sub, false);
    ids.P3 = await project('Shared depot', ids.other, other, true);
    ids.P4 = await project('Other site', ids.other, other, true);
    await db.execute(sql`insert into project_users (project_id, user_id) values (${ids.P3}, ${ids.sub})`);

    const [bmu] = await q<{ id: number }>(sql`select id from device_types where code = 'BMU'`);
    const [tracker] = await q<{ id: number }>(sql`insert into device_types (code, name, owner_path) values ('MAPTRK', 'Tracker', '/1/') returning id`);
    ids.bmu = bmu!.id;
    ids.tracker = tracker!.id;
    const device = async (
      key: string,
      owner: string,
      projectId: number | null,
      at: [number, number] | null,
      extra: { online?: boolean; level?: number; mapMode?: number; typeId?: number } = {},
    ) => {
      const [d] = await q<{ id: number }>(sql`
        insert into devices (sn, name, type_id, owner_path, project_id, lng, lat, online, warning_level, map_mode)
        values (${`MAP-${key}`}, ${`Map ${key}`}, ${extra.typeId ?? ids.bmu}, ${owner}, ${projectId}, ${at?.[0] ?? null}, ${at?.[1] ?? null},
          ${extra.online ?? false}, ${extra.level ?? 0}, ${extra.mapMode ?? 0})
        returning id`);
      ids[key] = d!.id;
    };
    await device('a', sub, ids.P1, [121.5, 31.2], { online: true, level: 3, mapMode: 1 });
    await device('b', sub, ids.P2, [121.6, 31.3]);
    await device('c', sub, null, [-3.7, 40.4]);
    await device('d', sub, ids.P1, null);
    await device('e', sub, ids.P1, [121.7, 31.4], { mapMode: 2 });
    await device('f', other, ids.P3, [113.9, 22.5], { online: true });
    await device('g', other, ids.P4, [116.4, 39.9]);
    await device('h', '/1/', null, [2.35, 48.86], { typeId: ids.tracker });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the caller’s devices on maps in columns, with their state, level, project and type', async () => {
    const r = await get('sub');
    expect(r.code).toBe(20000);
    // b: its project's map is off; d: no position; e: map mode 2; g, h: not the caller's.
    expect(names(r.data)).toEqual(['a', 'c', 'f']);
    const at = r.data.ids.indexOf(ids.a);
    expect({
      lng: r.data.lng[at],
      lat: r.data.lat[at],
      online: r.data.online[at],
      level: r.data.level[at],
      project: r.data.project[at],
      type: r.data.type[at],
    }).toEqual({ lng: 121.5, lat: 31.2, online: 1, level: 3, project: ids.P1, type: ids.bmu });
    expect(r.data.project[r.data.ids.indexOf(ids.c)]).toBe(0);
    expect(r.data.online[r.data.ids.indexOf(ids.c)]).toBe(0);
    for (const column of ['lng', 'lat', 'online', 'level', 'project', 'type']) expect(r.data[column]).toHaveLength(3);
    expect(r.data.projects.sort((x: { id: number }, y: { id: number }) => x.id - y.id)).toEqual([
      { id: ids.P1, name: 'Harbour' },
      { id: ids.P3, name: 'Shared depot' },
    ]);
    expect(r.data.types).toEqual([{ id: ids.bmu, name: expect.any(String) }]);
    expect(r.data.truncated).toBe(false);
  });

  it('scopes like the device list: the owner of a shared project and the super administrator see theirs', async () => {
    expect(names((await get('other')).data)).toEqual(['f', 'g']);
    const all = (await get('admin')).data;
    expect(names(all).filter(Boolean)).toEqual(['a', 'c', 'f', 'g', 'h']);
    expect(all.types.map((x: { id: number }) => x.id).sort()).toEqual([ids.bmu, ids.tracker].sort());
  });

  it('one project’s map and the type filter', async () => {
    expect(names((await get('sub', `?projectId=${ids.P1}`)).data)).toEqual(['a']);
    // A project whose map is off shows nothing, even asked by name.
    expect(names((await get('sub', `?projectId=${ids.P2}`)).data)).toEqual([]);
    // A project the caller does not see answers nothing of it.
    expect(names((await get('sub', `?projectId=${ids.P4}`)).data)).toEqual([]);
    expect(names((await get('admin', `?typeId=${ids.tracker}`)).data)).toEqual(['h']);
    const bad = await get('sub', '?projectId=abc');
    expect(bad.code).toBe(ErrorCode.VALIDATION);
    expect(bad.data.field).toBe('projectId');
  });

  it('turning a project’s map on shows its devices', async () => {
    await t.database.db.execute(sql`update projects set map = true where id = ${ids.P2}`);
    try {
      expect(names((await get('sub')).data)).toEqual(['a', 'b', 'c', 'f']);
    } finally {
      await t.database.db.execute(sql`update projects set map = false where id = ${ids.P2}`);
    }
  });

  it('a GPS device shows at its newest fix, a fixed device (map mode 1) at its typed position', async () => {
    // The administrator's own project: the other tests' answers stay as the fixture says.
    const [p5] = rowsOf<{ id: number }>(
      await t.database.db.execute(sql`insert into projects (name, owner_id, owner_path) values ('Trucks', 1, '/1/') returning id`),
    );
    const add = async (sn: string, body: object) => {
      const r = (await t.app.inject({ method: 'POST', url: '/api/v1/device/add', headers: bearer(tok.admin!),
        payload: { name: sn, sn, typeId: ids.bmu, projectId: p5!.id, ...body } })).json();
      expect(r.code, JSON.stringify(r)).toBe(20000);
      return { id: r.data.id as number, secret: r.data.secret as string, sn };
    };
    const fix = (d: { sn: string; secret: string }, lng: number, lat: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/gps',
        headers: { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` },
        payload: { lng, lat, speed: 30, satellites: 8 },
      });
    const moving = await add('MAP-GPS', { mapMode: 0 });
    const fixed = await add('MAP-FIXED', { mapMode: 1, lng: 121.47, lat: 31.23 });
    const where = async (id: number) => {
      const data = (await get('admin', `?projectId=${p5!.id}`)).data;
      const i = data.ids.indexOf(id);
      return i < 0 ? null : [data.lng[i], data.lat[i]];
    };
    // No position yet: not on the map.
    expect(await where(moving.id)).toBeNull();
    expect(await where(fixed.id)).toEqual([121.47, 31.23]);
    for (const d of [moving, fixed]) expect((await fix(d, 113.93, 22.52)).json().data.accepted).toBe(1);
    expect(await where(moving.id)).toEqual([113.93, 22.52]);
    expect(await where(fixed.id)).toEqual([121.47, 31.23]);
  });

  it('is refused without map:view, and without a session', async () => {
    const r = await get('nomap');
    expect(r.code).toBe(ErrorCode.FORBIDDEN);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/map/positions' });
    expect(anonymous.json().code).toBe(ErrorCode.TOKEN_ILLEGAL);
  });
});
