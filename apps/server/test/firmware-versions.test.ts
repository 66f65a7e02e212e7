import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, firmwareDownloadPath, type FirmwareDto } from '@iot/contract';
import { addTestDevice, apiAs, bearer, buildTestApp, multipart, type TestApp } from './helpers.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Firmware versions (§3 upgrade version, §7 /upgrade/list, add, edit, delete), their images on
 * disk, who sees and changes them (published downwards, changed in the creator's subtree), and
 * the devices' download with their own credentials and Range.
 */
describe('firmware versions', () => {
  let t: TestApp;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-'));
  const fwDir = path.join(dataDir, 'firmware');
  const tok: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const { call, ok } = apiAs(() => t, tok);
  let typeId: number;
  let seq = 0;

  const upload = async (who: string, data: Buffer, name = 'fw.bin') => {
    const form = multipart(name, data);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/upgrade/upload', headers: { ...bearer(tok[who]!), ...form.headers }, payload: form.payload });
    return res.json() as { code: number; message: string; data: { fileKey: string; fileName: string; size: number; sha256: string } & Record<string, unknown> };
  };
  const fields = () => ({ name: `FW ${++seq}`, manufacturer: 'Acme', module: 'BMS', softwareVersion: `1.0.${seq}`, info: 'fixes' });
  /** A version of `who` with an uploaded image: its id, the bytes and the upload's answer. */
  const newVersion = async (who: string, extra: object = {}) => {
    const data = randomBytes(4096);
    const up = await upload(who, data);
    expect(up, JSON.stringify(up)).toMatchObject({ code: 20000 });
    const { id } = await ok(who, 'POST', '/upgrade/add', { ...fields(), fileKey: up.data.fileKey, ...extra });
    return { id: id as number, data, fileKey: up.data.fileKey };
  };
  const list = async (who: string, query = '') => (await ok(who, 'GET', `/upgrade/list?limit=200${query}`)) as { total: number; items: FirmwareDto[] };
  const files = () => (fs.existsSync(fwDir) ? fs.readdirSync(fwDir) : []);
  const basicOf = (d: { sn: string; secret: string }) => `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}`;
  const download = (versionId: number, authorization: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: firmwareDownloadPath(versionId), headers: { authorization, ...headers } });
  /** A running campaign of this version, written directly (campaigns are another module's). */
  const runningCampaign = async (versionId: number) => {
    await t.database.db.execute(sql`
      insert into upgrade_campaigns (version_id, version_name, software_version, state, concurrency, stage_timeout_sec, retries, deadline, url, owner_path)
      values (${versionId}, 'FW', '1.0', 'running', 1, 60, 0, now() + interval '1 hour', 'x', '/1/')`);
  };

  beforeAll(async () => {
    // 1 MB: an upload of a little more is refused without a large test file.
    // No upgrade rounds: they would finish the device-less campaigns this test writes directly.
    t = await buildTestApp({ DATA_DIR: dataDir, FIRMWARE_MAX_MB: '1', API_RATE_LIMIT: '0' }, { upgradeRoundMs: 3_600_000 });
    tok.admin = await t.login();
    const roles = (await ok('admin', 'GET', '/role/getlist?limit=200')).items as { id: number; identification: string }[];
    const adminRole = roles.find((r) => r.identification === 'ADMIN')!.id;
    // alpha with a sub-user below it; beta, alpha's sibling.
    for (const name of ['alpha', 'beta']) {
      ids[name] = (await ok('admin', 'POST', '/user/add', { username: name, password: 'secret-pass', type: 1, roleId: adminRole })).id;
      tok[name] = await t.login(name, 'secret-pass');
    }
    ids.sub = (await ok('alpha', 'POST', '/user/add', { username: 'alpha-sub', password: 'secret-pass', type: 1, roleId: adminRole })).id;
    tok.sub = await t.login('alpha-sub', 'secret-pass');
    const types = (await ok('admin', 'GET', '/devicetype/typeoptionslist')) as { id: number; code: string }[];
    typeId = types.find((x) => x.code === 'BMU')!.id;
    ids.betaType = (await ok('beta', 'POST', '/devicetype/addtype', { code: 'BETA', name: 'Beta type' })).id;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('upload → add → list → edit → delete, the image on disk from upload to delete', async () => {
    const data = randomBytes(20_000);
    const up = await upload('alpha', data, 'bmu-1.4.3.bin');
    expect(up.code).toBe(20000);
    expect(up.data).toMatchObject({ fileName: 'bmu-1.4.3.bin', size: 20_000, sha256: sha(data) });
    expect(up.data.fileKey).toMatch(/^[0-9a-f]{32}$/);
    expect(fs.readFileSync(path.join(fwDir, up.data.fileKey)).equals(data)).toBe(true);

    const body = { ...fields(), typeIds: [typeId], models: ['BMU-48', 'BMU-48', 'BMU-60'], fileKey: up.data.fileKey };
    const { id } = await ok('alpha', 'POST', '/upgrade/add', body);
    // One upload makes one version.
    const again = await call('alpha', 'POST', '/upgrade/add', { ...fields(), fileKey: up.data.fileKey });
    expect(again).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'fileKey', reason: 'uploadTaken' } });

    const row = (await list('alpha')).items.find((v) => v.id === id)!;
    expect(row).toMatchObject({
      name: body.name,
      softwareVersion: body.softwareVersion,
      fileName: 'bmu-1.4.3.bin',
      size: 20_000,
      sha256: sha(data),
      url: '',
      models: ['BMU-48', 'BMU-60'],
      createdByName: 'alpha',
      inUse: false,
      can: { edit: true, delete: true },
    });
    expect(row.types.map((x) => x.id)).toEqual([typeId]);
    // Filters: free text over name and software version, manufacturer, module, type.
    expect((await list('alpha', `&q=${encodeURIComponent(body.softwareVersion)}`)).items.map((v) => v.id)).toEqual([id]);
    expect((await list('alpha', '&manufacturer=acm&module=bm')).items.map((v) => v.id)).toContain(id);
    expect((await list('alpha', '&manufacturer=nobody')).total).toBe(0);
    expect((await list('alpha', `&typeId=${ids.betaType}`)).items.map((v) => v.id)).not.toContain(id);
    expect((await list('alpha', `&typeId=${typeId}&sort=size&order=asc`)).items.map((v) => v.id)).toContain(id);

    // Edit the fields, then replace the image: the old file goes.
    await ok('alpha', 'POST', '/upgrade/edit', { id, name: 'Renamed', models: [] });
    const data2 = randomBytes(5000);
    const up2 = await upload('alpha', data2, 'bmu-1.4.4.bin');
    await ok('alpha', 'POST', '/upgrade/edit', { id, fileKey: up2.data.fileKey });
    const edited = (await list('alpha')).items.find((v) => v.id === id)!;
    expect(edited).toMatchObject({ name: 'Renamed', models: [], fileName: 'bmu-1.4.4.bin', size: 5000, sha256: sha(data2), softwareVersion: body.softwareVersion });
    expect(files()).not.toContain(up.data.fileKey);
    expect(files()).toContain(up2.data.fileKey);

    // To an external URL: no file left; the SHA-256 is required with a URL.
    const noSha = await call('alpha', 'POST', '/upgrade/edit', { id, url: 'https://files.example.com/fw.bin' });
    expect(noSha).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'sha256' } });
    await ok('alpha', 'POST', '/upgrade/edit', { id, url: 'https://files.example.com/fw.bin', sha256: 'A'.repeat(64), size: 123 });
    expect((await list('alpha')).items.find((v) => v.id === id)).toMatchObject({ url: 'https://files.example.com/fw.bin', sha256: 'a'.repeat(64), size: 123, fileName: null });
    expect(files()).not.toContain(up2.data.fileKey);

    // The same URL sent again is no new image (allowed while a campaign runs).
    await runningCampaign(id);
    await ok('alpha', 'POST', '/upgrade/edit', { id, url: 'https://files.example.com/fw.bin', sha256: 'a'.repeat(64), size: 123, info: 'same image' });
    await t.database.db.execute(sql`update upgrade_campaigns set state = 'cancelled' where version_id = ${id}`);
    const del = await ok('alpha', 'DELETE', `/upgrade/delete?id=${id}`);
    expect(del).toEqual({ count: 1 });
    expect((await list('alpha')).items.find((v) => v.id === id)).toBeUndefined();
    const gone = await call('alpha', 'DELETE', `/upgrade/delete?id=${id}`);
    expect(gone).toMatchObject({ code: ErrorCode.NOT_FOUND, data: { reason: 'versionNotFound' } });
  });

  it('deleting an uploaded version removes its image', async () => {
    const v = await newVersion('alpha');
    expect(files()).toContain(v.fileKey);
    await ok('alpha', 'DELETE', `/upgrade/delete?id=${v.id}`);
    expect(files().filter((f) => f.startsWith(v.fileKey))).toEqual([]);
  });

  it('refuses an empty upload and one over FIRMWARE_MAX_MB, naming the file, leaving nothing on disk', async () => {
    const before = files();
    const empty = await upload('alpha', Buffer.alloc(0));
    expect(empty).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file', reason: 'firmwareEmpty' } });
    const big = await upload('alpha', randomBytes(1024 * 1024 + 1));
    expect(big).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file', reason: 'firmwareTooLarge', params: { max: 1 } } });
    expect(files()).toEqual(before);
    // Exactly the limit is whole.
    const edge = await upload('alpha', randomBytes(1024 * 1024));
    expect(edge).toMatchObject({ code: 20000, data: { size: 1024 * 1024 } });
    // No file at all, or another field.
    const none = await t.app.inject({ method: 'POST', url: '/api/v1/upgrade/upload', headers: bearer(tok.alpha!), payload: {} });
    expect(none.json()).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'file' } });
  });

  it('an add needs an image: a kept upload, or an http(s) URL with its SHA-256', async () => {
    const noImage = await call('alpha', 'POST', '/upgrade/add', fields());
    expect(noImage).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'fileKey' } });
    const urlNoSha = await call('alpha', 'POST', '/upgrade/add', { ...fields(), url: 'https://files.example.com/a.bin' });
    expect(urlNoSha).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'sha256' } });
    const ftp = await call('alpha', 'POST', '/upgrade/add', { ...fields(), url: 'ftp://files.example.com/a.bin', sha256: 'a'.repeat(64) });
    expect(ftp).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'url' } });
    const badSha = await call('alpha', 'POST', '/upgrade/add', { ...fields(), url: 'https://files.example.com/a.bin', sha256: 'xyz' });
    expect(badSha).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'sha256' } });
    const unknownKey = await call('alpha', 'POST', '/upgrade/add', { ...fields(), fileKey: 'f'.repeat(32) });
    expect(unknownKey).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'fileKey', reason: 'uploadNotFound' } });
    // A type of another line is not the caller's to name.
    const foreignType = await call('alpha', 'POST', '/upgrade/add', { ...fields(), url: 'https://files.example.com/a.bin', sha256: 'a'.repeat(64), typeIds: [ids.betaType] });
    expect(foreignType).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'typeIds', reason: 'deviceTypeNotFound' } });
    const { id } = await ok('alpha', 'POST', '/upgrade/add', { ...fields(), url: 'http://files.example.com/a.bin', sha256: 'b'.repeat(64) });
    expect((await list('alpha')).items.find((v) => v.id === id)).toMatchObject({ url: 'http://files.example.com/a.bin', size: null, fileName: null });
  });

  it('a sub-user sees its parent’s version but cannot change it; a sibling does not see it', async () => {
    const v = await newVersion('alpha');
    const seen = (await list('sub')).items.find((x) => x.id === v.id);
    expect(seen).toMatchObject({ can: { edit: false, delete: false } });
    expect(await call('sub', 'POST', '/upgrade/edit', { id: v.id, name: 'Mine' })).toMatchObject({
      code: ErrorCode.FORBIDDEN,
      data: { reason: 'versionReadOnly' },
    });
    expect(await call('sub', 'DELETE', `/upgrade/delete?id=${v.id}`)).toMatchObject({ code: ErrorCode.FORBIDDEN, data: { reason: 'versionReadOnly' } });
    // The sibling: as if it did not exist.
    expect((await list('beta')).items.find((x) => x.id === v.id)).toBeUndefined();
    expect(await call('beta', 'POST', '/upgrade/edit', { id: v.id, name: 'Mine' })).toMatchObject({ code: ErrorCode.NOT_FOUND, data: { reason: 'versionNotFound' } });
    expect(await call('beta', 'DELETE', `/upgrade/delete?id=${v.id}`)).toMatchObject({ code: ErrorCode.NOT_FOUND });
    // The sub-user's own version is seen above it (alpha changes it) but not by its sibling line.
    const own = await newVersion('sub');
    expect((await list('alpha')).items.find((x) => x.id === own.id)).toMatchObject({ can: { edit: true, delete: true } });
    expect((await list('beta')).items.find((x) => x.id === own.id)).toBeUndefined();
    await ok('alpha', 'POST', '/upgrade/edit', { id: own.id, info: 'checked by alpha' });
    // The super administrator's versions are published to everyone.
    const root = await newVersion('admin');
    expect((await list('beta')).items.find((x) => x.id === root.id)).toMatchObject({ can: { edit: false, delete: false } });
  });

  it('a running campaign keeps its version: no delete, no new image; its other fields may change', async () => {
    const v = await newVersion('alpha');
    await runningCampaign(v.id);
    expect((await list('alpha')).items.find((x) => x.id === v.id)).toMatchObject({ inUse: true, can: { edit: true, delete: false } });
    expect(await call('alpha', 'DELETE', `/upgrade/delete?id=${v.id}`)).toMatchObject({ code: ErrorCode.CONFLICT, data: { reason: 'versionInUse' } });
    const up = await upload('alpha', randomBytes(100));
    expect(await call('alpha', 'POST', '/upgrade/edit', { id: v.id, fileKey: up.data.fileKey })).toMatchObject({
      code: ErrorCode.CONFLICT,
      data: { reason: 'versionInUse' },
    });
    expect(await call('alpha', 'POST', '/upgrade/edit', { id: v.id, url: 'https://x.example.com/a', sha256: 'c'.repeat(64) })).toMatchObject({
      code: ErrorCode.CONFLICT,
      data: { reason: 'versionInUse' },
    });
    await ok('alpha', 'POST', '/upgrade/edit', { id: v.id, info: 'still rolling out', fileKey: v.fileKey });
    expect(files()).toContain(v.fileKey);
    // Once the campaign has ended the version goes, the campaign keeps its copy of the name.
    await t.database.db.execute(sql`update upgrade_campaigns set state = 'finished' where version_id = ${v.id}`);
    await ok('alpha', 'DELETE', `/upgrade/delete?id=${v.id}`);
    const left = await t.database.db.execute(sql`select count(*)::int as n from upgrade_campaigns where version_id is null and version_name = 'FW'`);
    expect((left as unknown as { rows: { n: number }[] }).rows[0]!.n).toBeGreaterThan(0);
  });

  it('unreferenced uploads older than a day are removed on a later upload', async () => {
    const old = await upload('alpha', randomBytes(64));
    const kept = await newVersion('alpha');
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    for (const f of files()) if (f.startsWith(old.data.fileKey) || f.startsWith(kept.fileKey)) fs.utimesSync(path.join(fwDir, f), dayAgo, dayAgo);
    // A part an interrupted upload left behind.
    const stray = path.join(fwDir, `${'e'.repeat(32)}.part`);
    fs.writeFileSync(stray, 'half');
    fs.utimesSync(stray, dayAgo, dayAgo);
    await upload('alpha', randomBytes(64));
    expect(files().filter((f) => f.startsWith(old.data.fileKey))).toEqual([]);
    expect(fs.existsSync(stray)).toBe(false);
    expect(files()).toContain(kept.fileKey);
    expect(await call('alpha', 'POST', '/upgrade/add', { ...fields(), fileKey: old.data.fileKey })).toMatchObject({ data: { reason: 'uploadNotFound' } });
  });

  describe('device download', () => {
    let version: { id: number; data: Buffer };
    let device: { id: number; sn: string; secret: string };

    beforeAll(async () => {
      version = await newVersion('alpha');
      // A device of the sub-user's line: below the version's creator.
      device = await addTestDevice(t.app, tok.sub!, typeId, `FW-DEV-${++seq}`);
    });

    it('serves the whole image with its checksum, resumes with Range, refuses a range past the end', async () => {
      const whole = await download(version.id, basicOf(device));
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(version.data)).toBe(true);
      expect(whole.headers['x-checksum-sha256']).toBe(sha(version.data));
      expect(whole.headers['accept-ranges']).toBe('bytes');

      const rest = await download(version.id, basicOf(device), { range: 'bytes=10-' });
      expect(rest.statusCode).toBe(206);
      expect(rest.headers['content-range']).toBe(`bytes 10-${version.data.length - 1}/${version.data.length}`);
      expect(rest.rawPayload.equals(version.data.subarray(10))).toBe(true);

      const past = await download(version.id, basicOf(device), { range: 'bytes=999999999-' });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${version.data.length}`);
    });

    it('records the download in the device log', async () => {
      await download(version.id, basicOf(device));
      let rows: { detail: Record<string, unknown> }[] = [];
      for (let i = 0; i < 100 && rows.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const logs = await ok('admin', 'GET', `/logs/devicelogs?deviceId=${device.id}&kind=command`);
        rows = (logs.items as { detail: Record<string, unknown> }[]).filter((r) => r.detail.firmware === version.id);
      }
      expect(rows[0]!.detail).toMatchObject({ firmware: version.id, via: 'http' });
    });

    it('refuses wrong credentials as the HTTP uplink does (60204)', async () => {
      const wrong = await download(version.id, basicOf({ sn: device.sn, secret: 'not-the-secret' }));
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ code: ErrorCode.BAD_CREDENTIALS });
      const none = await t.app.inject({ method: 'GET', url: `/api/v1/ingest/firmware/${version.id}` });
      expect(none.json()).toMatchObject({ code: ErrorCode.BAD_CREDENTIALS });
      expect(none.headers['www-authenticate']).toContain('Basic');
    });

    it('a version of another owner line does not exist for the device; an external one is refused', async () => {
      const betaVersion = await newVersion('beta');
      expect((await download(betaVersion.id, basicOf(device))).json()).toMatchObject({ code: ErrorCode.NOT_FOUND, data: { reason: 'versionNotFound' } });
      // Published by the sub-user: below alpha's devices, so not for a device of alpha itself.
      const alphaDevice = await addTestDevice(t.app, tok.alpha!, typeId, `FW-DEV-${++seq}`);
      const subVersion = await newVersion('sub');
      expect((await download(subVersion.id, basicOf(alphaDevice))).statusCode).toBe(404);
      expect((await download(subVersion.id, basicOf(device))).statusCode).toBe(200);
      expect((await download(2_000_000, basicOf(device))).statusCode).toBe(404);
      const { id: external } = await ok('alpha', 'POST', '/upgrade/add', { ...fields(), url: 'https://files.example.com/x.bin', sha256: 'd'.repeat(64) });
      expect((await download(external, basicOf(device))).json()).toMatchObject({ code: ErrorCode.CONFLICT, data: { reason: 'firmwareExternal' } });
    });
  });
});
