import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type ExternalDeviceDto, type ExternalLogDto } from '@iot/contract';
import { firmwareDir } from '../src/modules/upgrade/firmware.serve.js';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

/**
 * External devices (§7 Hardware, /external/*; docs/PROTOCOL.md "External devices"): registered in
 * bulk, checking in over HTTP with their credential, assigned a version, downloading it with
 * Range, reporting progress and a result, and every assignment ending: succeeded (confirmed by
 * the version reported next), failed (the device's reason, or silence past the deadline),
 * cancelled. A sub-user sees and changes only its own subtree's devices.
 */
describe('external devices', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tok);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-external-'));
  let seq = 0;

  const rowsOf = async <R>(q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as unknown as { rows: R[] }).rows;

  /** A firmware version inserted directly (the versions API is another issue's): uploaded when `image` is given. */
  const newVersion = async (opts: { softwareVersion: string; image?: Buffer; url?: string; ownerPath?: string }) => {
    let fileKey: string | null = null;
    if (opts.image) {
      fileKey = `ext-${++seq}-${crypto.randomUUID()}.bin`;
      fs.mkdirSync(firmwareDir(dataDir), { recursive: true });
      fs.writeFileSync(path.join(firmwareDir(dataDir), fileKey), opts.image);
    }
    const [row] = await rowsOf<{ id: number }>(sql`
      insert into firmware_versions (name, software_version, url, file_key, file_name, size, sha256, owner_path)
      values (${`Module ${opts.softwareVersion}`}, ${opts.softwareVersion}, ${opts.url ?? ''}, ${fileKey},
        ${opts.image ? 'module.bin' : null}, ${opts.image?.length ?? null},
        ${opts.image ? crypto.createHash('sha256').update(opts.image).digest('hex') : null}, ${opts.ownerPath ?? '/1/'})
      returning id`);
    return row!.id;
  };

  /** Registers external devices as `who`; answers their ids and credentials. */
  const addDevices = async (who: string, n: number, model = 'M1') => {
    const devices = Array.from({ length: n }, () => ({ identifier: `IMEI${String(++seq).padStart(11, '0')}`, model }));
    return (await ok(who, 'POST', '/hardware/addDevice', { devices })).items as { id: number; identifier: string; secret: string }[];
  };

  const basic = (d: { identifier: string; secret: string }) => `Basic ${Buffer.from(`${d.identifier}:${d.secret}`).toString('base64')}`;
  const checkin = async (d: { identifier: string; secret: string }, body: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/hardware/checkin', headers: { authorization: basic(d) }, payload: body });
    return res.json() as { code: number; data: { upgrade: { versionId: number; softwareVersion: string; url: string; size: number | null; sha256: string | null } | null } };
  };
  const device = async (id: number, who = 'admin') =>
    ((await ok(who, 'GET', '/hardware/getlist?limit=200')).items as ExternalDeviceDto[]).find((d) => d.id === id);
  const logs = async (id: number, extra = '') => (await ok('admin', 'GET', `/hardware/getlogslist?deviceId=${id}&order=asc&limit=200${extra}`)).items as ExternalLogDto[];

  beforeAll(async () => {
    t = await buildTestApp({ DATA_DIR: dataDir, CONSOLE_URL: 'https://console.example.com' });
    tok.admin = await t.login();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('registers devices in bulk, each with a credential shown once; a duplicate refuses the whole call', async () => {
    const added = await addDevices('admin', 3);
    expect(added).toHaveLength(3);
    expect(new Set(added.map((d) => d.secret)).size).toBe(3);
    const stored = await rowsOf<{ credential_hash: string }>(sql`select credential_hash from external_devices where id = ${added[0]!.id}`);
    // Only the hash is kept.
    expect(stored[0]!.credential_hash).not.toContain(added[0]!.secret);

    const fresh = `IMEI-NEW-${++seq}`;
    const refused = await call('admin', 'POST', '/hardware/addDevice', {
      devices: [{ identifier: fresh }, { identifier: added[1]!.identifier }, { identifier: 'TWICE-1' }, { identifier: 'TWICE-1' }],
    });
    expect(refused.code).toBe(ErrorCode.CONFLICT);
    expect(refused.data.reason).toBe('externalDuplicate');
    expect(refused.data.params.identifiers).toContain(added[1]!.identifier);
    expect(refused.data.params.identifiers).toContain('TWICE-1');
    expect(await rowsOf(sql`select 1 from external_devices where identifier in (${fresh}, 'TWICE-1')`)).toEqual([]);

    // A colon would split the Basic credentials: not an identifier.
    expect((await call('admin', 'POST', '/hardware/addDevice', { devices: [{ identifier: 'A:B' }] })).code).toBe(ErrorCode.VALIDATION);
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ identifier: `MANY-${i}` }));
    expect((await call('admin', 'POST', '/hardware/addDevice', { devices: tooMany })).code).toBe(ErrorCode.VALIDATION);

    // The most one call takes, cancelled and deleted at once as well.
    const many = Array.from({ length: 1000 }, (_, i) => ({ identifier: `BULK-${seq}-${i}`, name: `Line ${i}` }));
    const all = (await ok('admin', 'POST', '/hardware/addDevice', { devices: many })).items as { id: number }[];
    expect(all).toHaveLength(1000);
    const allIds = all.map((d) => d.id);
    expect(await ok('admin', 'POST', '/external/closeupgrade', { ids: allIds })).toEqual({ count: 0 });
    expect(await ok('admin', 'DELETE', `/hardware/deleteDevice?id=${allIds.join(',')}`)).toEqual({ count: 1000 });
  });

  it('a check-in updates the reported version, time and address; a wrong credential is refused', async () => {
    const [d, silent] = await addDevices('admin', 2, 'CHK');
    expect((await checkin(d!, { version: '1.0.0' })).data).toEqual({ upgrade: null });
    const row = (await device(d!.id))!;
    expect(row).toMatchObject({ version: '1.0.0', state: 'none', model: 'CHK' });
    expect(Date.now() - Date.parse(row.lastCheckinAt!)).toBeLessThan(60_000);
    expect(row.lastAddress).not.toBe('');
    const filtered = (await ok('admin', 'GET', '/hardware/getlist?model=CHK&version=1.0.0')).items as ExternalDeviceDto[];
    expect(((await ok('admin', 'GET', '/hardware/getlist?model=CHK')).items as ExternalDeviceDto[]).length).toBe(2);
    expect(filtered.map((x) => x.id)).toEqual([d!.id]);
    // Sorted by last check-in, the newest first; those never checked in come last.
    const byCheckin = (await ok('admin', 'GET', '/hardware/getlist?sort=lastCheckinAt&order=desc&limit=200')).items as ExternalDeviceDto[];
    expect(byCheckin[0]!.id).toBe(d!.id);
    expect(byCheckin.at(-1)!.lastCheckinAt).toBeNull();
    expect(byCheckin.map((x) => x.id)).toContain(silent!.id);
    // Free text, any case, over the identifier and the name.
    const found = (await ok('admin', 'GET', `/hardware/getlist?q=${d!.identifier.toLowerCase()}`)).items as ExternalDeviceDto[];
    expect(found.map((x) => x.id)).toEqual([d!.id]);
    expect((await logs(d!.id)).map((l) => [l.event, l.version])).toEqual([['checkin', '1.0.0']]);

    const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/hardware/checkin', headers: { authorization: basic({ ...d!, secret: 'nope' }) }, payload: { version: '1' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe(ErrorCode.BAD_CREDENTIALS);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/v1/hardware/checkin', headers: { authorization: basic({ identifier: 'NOBODY', secret: 'x' }) }, payload: { version: '1' } });
    expect(unknown.json().code).toBe(ErrorCode.BAD_CREDENTIALS);
    const none = await t.app.inject({ method: 'POST', url: '/api/v1/hardware/checkin', payload: { version: '1' } });
    expect(none.json().code).toBe(ErrorCode.BAD_CREDENTIALS);
    // The refused calls changed nothing.
    expect(await logs(d!.id)).toHaveLength(1);
  });

  it('assigned → handed over at check-in → downloaded with Range → progress → ok → new version reported → succeeded', async () => {
    const image = crypto.randomBytes(5000);
    const versionId = await newVersion({ softwareVersion: '2.0.0', image });
    const [d, other] = await addDevices('admin', 2);
    await checkin(d!, { version: '1.0.0' });
    expect(await ok('admin', 'POST', '/external/setupgrade', { ids: [d!.id], versionId })).toEqual({ count: 1 });
    expect(await device(d!.id)).toMatchObject({ state: 'assigned', versionId, targetVersion: '2.0.0', progress: 0 });

    const answer = (await checkin(d!, { version: '1.0.0' })).data.upgrade!;
    expect(answer).toEqual({
      versionId,
      softwareVersion: '2.0.0',
      url: `https://console.example.com/api/v1/hardware/firmware/${versionId}`,
      size: 5000,
      sha256: crypto.createHash('sha256').update(image).digest('hex'),
    });
    // Another device may not fetch it: it is not assigned to it.
    const foreign = await t.app.inject({ method: 'GET', url: `/api/v1/hardware/firmware/${versionId}`, headers: { authorization: basic(other!) } });
    expect(foreign.statusCode).toBe(404);

    const part = await t.app.inject({ method: 'GET', url: `/api/v1/hardware/firmware/${versionId}`, headers: { authorization: basic(d!), range: 'bytes=1000-' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 1000-4999/5000');
    expect(part.rawPayload.equals(image.subarray(1000))).toBe(true);
    expect(await device(d!.id)).toMatchObject({ state: 'downloading' });

    expect((await checkin(d!, { version: '1.0.0', progress: 40 })).data.upgrade?.versionId).toBe(versionId);
    expect(await device(d!.id)).toMatchObject({ state: 'downloading', progress: 40 });
    expect((await checkin(d!, { version: '1.0.0', progress: 100, result: 'ok' })).data.upgrade?.versionId).toBe(versionId);
    expect(await device(d!.id)).toMatchObject({ state: 'installing', progress: 100 });
    // Its word is not enough: the version it reports next confirms it.
    expect((await checkin(d!, { version: '2.0.0' })).data.upgrade).toBeNull();
    expect(await device(d!.id)).toMatchObject({ state: 'succeeded', version: '2.0.0', progress: 100, reason: '', deadline: null });

    const events = (await ok('admin', 'GET', `/external/loglist?deviceId=${d!.id}&order=asc`)).items as ExternalLogDto[];
    expect(events.map((e) => e.event)).toEqual(['assign', 'download', 'progress', 'progress', 'result', 'succeeded']);
    expect(events[0]!.message).toBe('admin');
    expect(events[1]!.message).toBe('bytes=1000-');
    const onlyAssigned = (await ok('admin', 'GET', `/external/list?versionId=${versionId}`)).items as ExternalDeviceDto[];
    expect(onlyAssigned.map((x) => x.id)).toEqual([d!.id]);
    // Once ended, the image is no longer served to it.
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/hardware/firmware/${versionId}`, headers: { authorization: basic(d!) } })).statusCode).toBe(404);
  });

  it('an error ends failed with the device’s reason; an ok not followed by the version ends failed', async () => {
    const versionId = await newVersion({ softwareVersion: '3.0.0', url: 'https://cdn.example.com/fw/3.0.0.bin' });
    const [a, b] = await addDevices('admin', 2);
    await ok('admin', 'POST', '/external/setupgrade', { ids: [a!.id, b!.id], versionId });
    // A URL version's url is handed over as it is.
    expect((await checkin(a!, { version: '1' })).data.upgrade).toMatchObject({ url: 'https://cdn.example.com/fw/3.0.0.bin', size: null, sha256: null });

    expect((await checkin(a!, { version: '1', result: 'error', message: 'flash write failed' })).data.upgrade).toBeNull();
    expect(await device(a!.id)).toMatchObject({ state: 'failed', reason: 'flash write failed' });

    await checkin(b!, { version: '1', result: 'ok' });
    expect(await device(b!.id)).toMatchObject({ state: 'installing' });
    expect((await checkin(b!, { version: '1' })).data.upgrade).toBeNull();
    expect((await device(b!.id))!.reason).toMatch(/reported version 1 instead of 3\.0\.0/);
    expect((await device(b!.id))!.state).toBe('failed');
  });

  it('silence past the timeout ends failed "timed out", found by the list; the next check-in gets nothing', async () => {
    const versionId = await newVersion({ softwareVersion: '4.0.0', url: 'https://cdn.example.com/4.bin' });
    const [d] = await addDevices('admin', 1);
    expect((await call('admin', 'POST', '/external/setupgrade', { ids: [d!.id], versionId, timeoutSec: 5 })).code).toBe(ErrorCode.VALIDATION);
    await ok('admin', 'POST', '/external/setupgrade', { ids: [d!.id], versionId, timeoutSec: 60 });
    const assigned = (await device(d!.id))!;
    expect(Date.parse(assigned.deadline!) - Date.parse(assigned.assignedAt!)).toBe(60_000);
    await checkin(d!, { version: '1', progress: 10 });
    // The minute passes without news.
    await t.database.db.execute(sql`update external_devices set deadline = now() - interval '1 second' where id = ${d!.id}`);
    const listed = ((await ok('admin', 'GET', '/external/list?state=failed&limit=200')).items as ExternalDeviceDto[]).find((x) => x.id === d!.id);
    expect(listed).toMatchObject({ state: 'failed', reason: 'timed out', deadline: null });
    expect((await checkin(d!, { version: '1', progress: 20 })).data.upgrade).toBeNull();
    expect((await device(d!.id))!.state).toBe('failed');
    expect((await logs(d!.id, '&event=failed')).map((l) => l.message)).toEqual(['timed out']);

    // The timer's round ends them too, with no list asked for and no check-in.
    const [e] = await addDevices('admin', 1);
    await ok('admin', 'POST', '/external/setupgrade', { ids: [e!.id], versionId, timeoutSec: 60 });
    await t.database.db.execute(sql`update external_devices set deadline = now() - interval '1 second' where id = ${e!.id}`);
    expect(await t.app.externalDevices.expire()).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(sql`select state, reason from external_devices where id = ${e!.id}`)).toEqual([{ state: 'failed', reason: 'timed out' }]);
  });

  it('a cancel ends the assignment: the next check-in gets nothing; a device downloading is not reassigned', async () => {
    const image = crypto.randomBytes(100);
    const versionId = await newVersion({ softwareVersion: '5.0.0', image });
    const [d] = await addDevices('admin', 1);
    await ok('admin', 'POST', '/external/setupgrade', { ids: [d!.id], versionId });
    await checkin(d!, { version: '1', progress: 5 });
    const busy = await call('admin', 'POST', '/external/setupgrade', { ids: [d!.id], versionId });
    expect(busy.code).toBe(ErrorCode.CONFLICT);
    expect(busy.data.reason).toBe('externalUpgrading');
    expect(await ok('admin', 'POST', '/external/closeupgrade', { ids: [d!.id] })).toEqual({ count: 1 });
    expect(await device(d!.id)).toMatchObject({ state: 'cancelled', deadline: null });
    expect((await checkin(d!, { version: '1' })).data.upgrade).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/hardware/firmware/${versionId}`, headers: { authorization: basic(d!) } })).statusCode).toBe(404);
    // Nothing open: nothing to cancel again.
    expect(await ok('admin', 'POST', '/external/closeupgrade', { ids: [d!.id] })).toEqual({ count: 0 });
    expect((await logs(d!.id, '&event=cancel')).map((l) => l.message)).toEqual(['admin']);
  });

  it('a sub-user neither sees nor assigns, cancels or deletes a sibling’s devices, nor assigns its versions', async () => {
    for (const name of ['ext-left', 'ext-right']) {
      await t.createUser({ username: name, password: 'secret-pass-1', role: 'ADMIN' });
      tok[name] = await t.login(name, 'secret-pass-1');
    }
    const [mine] = await addDevices('ext-left', 1);
    const [theirs] = await addDevices('ext-right', 1);
    const rightPath = (await rowsOf<{ owner_path: string }>(sql`select owner_path from external_devices where id = ${theirs!.id}`))[0]!.owner_path;
    const shared = await newVersion({ softwareVersion: '6.0.0', url: 'https://cdn.example.com/6.bin' });
    const rightsOwn = await newVersion({ softwareVersion: '6.1.0', url: 'https://cdn.example.com/61.bin', ownerPath: rightPath });

    const seen = (await ok('ext-left', 'GET', '/hardware/getlist?limit=200')).items as ExternalDeviceDto[];
    expect(seen.map((d) => d.id)).toEqual([mine!.id]);
    await checkin(theirs!, { version: '1' });
    expect(((await ok('ext-left', 'GET', '/hardware/getlogslist?limit=200')).items as ExternalLogDto[]).map((l) => l.deviceId)).not.toContain(theirs!.id);

    const notFound = async (method: 'GET' | 'POST' | 'DELETE', url: string, body?: object) => {
      const r = await call('ext-left', method, url, body);
      expect(r.code, url).toBe(ErrorCode.NOT_FOUND);
      return r;
    };
    expect((await notFound('POST', '/external/setupgrade', { ids: [theirs!.id], versionId: shared })).data.reason).toBe('externalDevicesNotFound');
    expect((await notFound('POST', '/external/setupgrade', { ids: [mine!.id], versionId: rightsOwn })).data.reason).toBe('externalVersionNotFound');
    await notFound('POST', '/external/closeupgrade', { ids: [theirs!.id] });
    await notFound('DELETE', `/hardware/deleteDevice?id=${theirs!.id}`);
    await notFound('DELETE', `/hardware/deleteLogsDevice?deviceId=${theirs!.id}`);
    await notFound('GET', `/hardware/getlogslist?deviceId=${theirs!.id}`);
    expect(((await ok('ext-left', 'GET', '/external/versionoptions')) as { id: number }[]).map((v) => v.id)).toContain(shared);
    expect(((await ok('ext-left', 'GET', '/external/versionoptions')) as { id: number }[]).map((v) => v.id)).not.toContain(rightsOwn);
    // Its own device, with the version published above it: allowed.
    expect(await ok('ext-left', 'POST', '/external/setupgrade', { ids: [mine!.id], versionId: shared })).toEqual({ count: 1 });
    // Deleting logs older than a time touches only its own line's.
    await ok('ext-left', 'DELETE', `/hardware/deleteLogsDevice?before=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect((await logs(theirs!.id)).length).toBeGreaterThan(0);
  });

  it('logs are listed by device, event and time, and deleted by device, by age and with their device', async () => {
    const [d] = await addDevices('admin', 1);
    for (const v of ['1', '2', '3']) await checkin(d!, { version: v });
    expect((await logs(d!.id)).map((l) => l.version)).toEqual(['1', '2', '3']);
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect((await ok('admin', 'GET', `/hardware/getlogslist?deviceId=${d!.id}&from=${future}`)).items).toEqual([]);
    // Paged: two a page, the total told.
    const page = await ok('admin', 'GET', `/hardware/getlogslist?deviceId=${d!.id}&limit=2&page=2`);
    expect(page.total).toBe(3);
    expect(page.items).toHaveLength(1);

    await t.database.db.execute(sql`update external_logs set at = now() - interval '2 days' where id = (select min(id) from external_logs where device_id = ${d!.id})`);
    const dayAgo = encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString());
    expect(await ok('admin', 'DELETE', `/hardware/deleteLogsDevice?deviceId=${d!.id}&before=${dayAgo}`)).toEqual({ count: 1 });
    expect(await ok('admin', 'DELETE', `/hardware/deleteLogsDevice?deviceId=${d!.id}`)).toEqual({ count: 2 });
    expect(await logs(d!.id)).toEqual([]);
    // Neither a device nor a time: refused by name.
    const neither = await call('admin', 'DELETE', '/hardware/deleteLogsDevice');
    expect(neither.code).toBe(ErrorCode.VALIDATION);

    await checkin(d!, { version: '4' });
    expect(await ok('admin', 'DELETE', `/hardware/deleteDevice?id=${d!.id}`)).toEqual({ count: 1 });
    expect(await rowsOf(sql`select 1 from external_logs where device_id = ${d!.id}`)).toEqual([]);
    expect((await checkin(d!, { version: '4' })).code).toBe(ErrorCode.BAD_CREDENTIALS);
    // Each change is in the operation log, with the devices' identifiers.
    const ops = await rowsOf<{ action: string }>(sql`select action from operation_logs where entity_name like ${`%${d!.identifier}%`} order by id`);
    expect(ops.map((o) => o.action)).toEqual(['external.add', 'external.deletelogs', 'external.deletelogs', 'external.delete']);
  });
});
