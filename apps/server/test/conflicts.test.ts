import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@iot/contract';
import { conflictFromDb } from '../src/lib/db-errors.js';
import { bearer, buildTestApp, type EnvelopeJson, type TestApp } from './helpers.js';

/**
 * Simultaneous creations of one unique value: the check before the insert cannot see the other
 * request, so the database's unique constraint decides and must answer the documented 40900.
 */
describe('unique violations answer 40900 with a reason', () => {
  let t: TestApp;
  let token: string;
  let typeId: number;
  const post = async (url: string, payload: object) =>
    (await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: bearer(token), payload })).json() as EnvelopeJson;
  /** Sends the same creation `n` times at once. */
  const race = (n: number, url: string, payload: () => object) => Promise.all(Array.from({ length: n }, () => post(url, payload())));
  const expectOneWinner = (answers: EnvelopeJson[], reason: string, field: string) => {
    expect(answers.filter((a) => a.code === 20000)).toHaveLength(1);
    const losers = answers.filter((a) => a.code !== 20000);
    for (const a of losers) {
      expect(a).toMatchObject({ code: ErrorCode.CONFLICT, data: { reason, field } });
    }
  };

  beforeAll(async () => {
    t = await buildTestApp();
    token = await t.login();
    const types = (await t.app.inject({ method: 'GET', url: '/api/v1/devicetype/typeoptionslist', headers: bearer(token) })).json();
    typeId = types.data[0].id;
  });
  afterAll(() => t.close());

  it('parallel /device/add with one SN: one device, the others snTaken', async () => {
    for (let round = 0; round < 3; round++) {
      const sn = `RACE-${round}`;
      const answers = await race(6, '/device/add', () => ({ name: 'Racer', sn, typeId }));
      expectOneWinner(answers, 'snTaken', 'sn');
      for (const a of answers.filter((x) => x.code !== 20000)) expect(a.message).toContain(sn);
    }
  });

  it('parallel edits to one SN, users, roles and type codes', async () => {
    const ids = await Promise.all([1, 2, 3, 4].map(async (i) => (await post('/device/add', { name: 'E', sn: `EDIT-${i}`, typeId })).data.id as number));
    const edits = await Promise.all(ids.map((id) => post('/device/edit', { id, name: 'E', sn: 'EDIT-SAME', typeId })));
    expectOneWinner(edits, 'snTaken', 'sn');

    expectOneWinner(await race(5, '/role/add', () => ({ name: 'R', identification: 'RACE_ROLE' })), 'identificationTaken', 'identification');
    expectOneWinner(await race(5, '/devicetype/addtype', () => ({ code: 'RACE_T', name: 'T' })), 'typeCodeTaken', 'code');
    const roleId = (await post('/role/add', { name: 'Plain', identification: 'PLAIN' })).data.id as number;
    expectOneWinner(
      await race(5, '/user/add', () => ({ username: 'racer', password: 'secret-pass', type: 1, roleId })),
      'usernameTaken',
      'username',
    );
  });

  it('a value taken in another subtree answers 40900 with the reason only: no id, owner or name', async () => {
    await t.createUser({ username: 'north', password: 'secret-pass', role: 'ADMIN' });
    await t.createUser({ username: 'south', password: 'secret-pass', role: 'ADMIN' });
    const [north, south] = [await t.login('north', 'secret-pass'), await t.login('south', 'secret-pass')];
    const as = async (tok: string, url: string, payload: object) =>
      (await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: bearer(tok), payload })).json() as EnvelopeJson;
    expect((await as(north, '/devicetype/addtype', { code: 'NORTH_SECRET', name: 'North’s secret model' })).code).toBe(20000);
    expect((await as(north, '/role/add', { name: 'North ops', identification: 'NORTH_OPS' })).code).toBe(20000);
    const type = await as(south, '/devicetype/addtype', { code: 'NORTH_SECRET', name: 'Mine' });
    const role = await as(south, '/role/add', { name: 'Mine', identification: 'NORTH_OPS' });
    expect(type).toEqual({ code: ErrorCode.CONFLICT, message: 'This type code is already used', data: { field: 'code', reason: 'typeCodeTaken' } });
    expect(role).toEqual({ code: ErrorCode.CONFLICT, message: 'This identification is already used', data: { field: 'identification', reason: 'identificationTaken' } });
  });

  it('only unique violations become 40900; other database errors stay unexpected (50000)', () => {
    const wrapped = (cause: object) => Object.assign(new Error('Failed query'), { cause });
    expect(conflictFromDb(wrapped({ code: '23505', constraint: 'users_username_unique' }))?.data).toMatchObject({ reason: 'usernameTaken', field: 'username' });
    expect(conflictFromDb(wrapped({ code: '23505', constraint: 'some_new_unique' }))?.data).toMatchObject({ reason: 'duplicateValue' });
    expect(conflictFromDb(wrapped({ code: '23503', constraint: 'devices_type_id_fk' }))).toBeUndefined();
    expect(conflictFromDb(new Error('duplicate key value violates unique constraint "devices_sn_unique"'))).toBeUndefined();
  });
});
