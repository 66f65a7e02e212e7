import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { COMMAND_KINDS, ErrorCode, commandEnvelopeSchema, type CommandKind } from '@iot/contract';
import { addTestDevice, bearer, buildTestApp, type TestApp } from './helpers.js';
import { commandById } from '../src/telemetry/ingest.repo.js';

/** A valid payload of every command kind (packages/contract commands.ts). */
const GOOD: Record<CommandKind, unknown> = {
  setParams: { '10000030': true },
  fenceSet: { fenceId: 'depot-1', lng: 116.397, lat: 39.909, radius: 500, action: 'alarm' },
  fenceClose: { fenceId: 'depot-1' },
  fenceRelock: { fenceId: 'depot-1' },
  firmwareUpgrade: {
    versionId: 3,
    name: 'BMU main board',
    softwareVersion: '1.4.3',
    module: 'BMS',
    url: 'https://files.example.com/fw/bmu-1.4.3.bin',
    sha256: 'ab'.repeat(32),
    target: 'external',
  },
  firmwareCancel: { versionId: 3 },
  whitelist: { op: 'add', numbers: ['+8613800138000'] },
};

/** CommandService.send: every kind's payload is checked against its schema before it is stored. */
describe('command payloads', () => {
  let t: TestApp;
  let device: { id: number; sn: string; secret: string };
  let addDevice: (sn: string) => Promise<{ id: number; sn: string; secret: string }>;

  const countCommands = async () => {
    const res = await t.database.db.execute(sql`select count(*)::int as n from device_commands where device_id = ${device.id}`);
    return (res as unknown as { rows: { n: number }[] }).rows[0]!.n;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const token = await t.login();
    const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      (await t.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload })).json();
    const typeId = (await api('GET', '/devicetype/typeoptionslist')).data.find((x: { code: string }) => x.code === 'BMU').id;
    addDevice = (sn) => addTestDevice(t.app, token, typeId, sn);
    device = await addDevice('CMD-1');
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores a valid payload of every kind, and the device gets it as the contract’s envelope', async () => {
    // A device of its own: the other tests leave commands waiting for theirs.
    const device = await addDevice('CMD-ALL');
    const ids = new Map<string, CommandKind>();
    for (const kind of COMMAND_KINDS) {
      const row = await t.app.commands.send(device, kind, GOOD[kind], { ttlMs: 60_000 });
      expect(row).toMatchObject({ kind, status: 'pending', payload: GOOD[kind] });
      ids.set(row.id, kind);
    }
    // An HTTP device's next uplink brings them all.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/status',
      headers: { authorization: `Basic ${Buffer.from(`${device.sn}:${device.secret}`).toString('base64')}` },
      payload: { online: true },
    });
    const commands = res.json().data.commands as unknown[];
    expect(commands).toHaveLength(COMMAND_KINDS.length);
    for (const c of commands) {
      const envelope = commandEnvelopeSchema.parse(c);
      expect(envelope.kind).toBe(ids.get(envelope.id));
      expect(envelope.payload).toEqual(GOOD[envelope.kind]);
    }
  });

  it('refuses a bad payload or an unknown kind naming the field, and stores nothing', async () => {
    const before = await countCommands();
    const refusal = (field: string) => ({ code: ErrorCode.VALIDATION, data: { field, reason: 'invalidValue' } });
    const send = (kind: string, payload: unknown) => t.app.commands.send(device, kind, payload, { ttlMs: 60_000 });

    await expect(send('selfDestruct', {})).rejects.toMatchObject(refusal('kind'));
    await expect(send('upgrade', { url: 'x' })).rejects.toMatchObject(refusal('kind'));
    await expect(send('setParams', {})).rejects.toMatchObject(refusal('payload'));
    await expect(send('setParams', undefined)).rejects.toMatchObject(refusal('payload'));
    await expect(send('setParams', { '10000030': { on: true } })).rejects.toMatchObject(refusal('payload.10000030'));
    await expect(send('fenceSet', { ...(GOOD.fenceSet as object), radius: 5 })).rejects.toMatchObject(refusal('payload.radius'));
    await expect(send('fenceSet', { ...(GOOD.fenceSet as object), lng: 181 })).rejects.toMatchObject(refusal('payload.lng'));
    await expect(send('fenceSet', { ...(GOOD.fenceSet as object), action: 'explode' })).rejects.toMatchObject(refusal('payload.action'));
    await expect(send('fenceClose', {})).rejects.toMatchObject(refusal('payload.fenceId'));
    await expect(send('fenceRelock', { fenceId: 'depot-1', lng: 1 })).rejects.toMatchObject(refusal('payload.lng'));
    await expect(send('firmwareUpgrade', { ...(GOOD.firmwareUpgrade as object), url: 'ftp://files.example.com/fw.bin' })).rejects.toMatchObject(
      refusal('payload.url'),
    );
    await expect(send('firmwareUpgrade', { ...(GOOD.firmwareUpgrade as object), sha256: 'xyz' })).rejects.toMatchObject(refusal('payload.sha256'));
    await expect(send('firmwareCancel', { versionId: 'three' })).rejects.toMatchObject(refusal('payload.versionId'));
    await expect(send('whitelist', { op: 'add', numbers: ['12'] })).rejects.toMatchObject(refusal('payload.numbers.0'));
    await expect(send('whitelist', { op: 'wipe', numbers: [] })).rejects.toMatchObject(refusal('payload.op'));
    const err = await send('fenceSet', { ...(GOOD.fenceSet as object), radius: 5 }).catch((e: Error) => e);
    expect(err.message).toBe('payload.radius: Invalid value');

    // Recorded for an offline device: the same check.
    await expect(t.app.commands.recordOffline(device, 'fenceClose', { fenceId: '' }, {})).rejects.toMatchObject(refusal('payload.fenceId'));
    await expect(t.app.commands.recordOffline(device, 'reboot', {}, {})).rejects.toMatchObject(refusal('kind'));
    expect(await countCommands()).toBe(before);
  });

  it('stores the payload as the schema reads it', async () => {
    const row = await t.app.commands.send(
      device,
      'firmwareUpgrade',
      { ...(GOOD.firmwareUpgrade as object), name: '  BMU main board  ', softwareVersion: ' 1.4.3' },
      { ttlMs: 60_000 },
    );
    expect((await commandById(t.database.db, row.id))!.payload).toMatchObject({ name: 'BMU main board', softwareVersion: '1.4.3' });
  });
});
