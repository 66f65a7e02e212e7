import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';
import { deviceTypeAlarms, deviceTypeParams, deviceTypes } from '../src/db/schema/index.js';
import { BMU_PARAMS, LEGACY_BMU_IDS } from '../src/db/seed/bmu.js';
import { seed } from '../src/db/seed/index.js';

/** An install from before the field's semaphore ids: its built-in battery type moves, unless edited. */
describe('built-in battery type: the field’s semaphore ids', () => {
  let t: TestApp;
  let typeId: number;
  const newToOld = Object.fromEntries(Object.entries(LEGACY_BMU_IDS).map(([o, n]) => [n, o]));

  const params = async () =>
    (await t.database.db.select({ id: deviceTypeParams.semaphoreId, nameEn: deviceTypeParams.nameEn }).from(deviceTypeParams).where(eq(deviceTypeParams.typeId, typeId))).map(
      (p) => p.id,
    );
  const alarms = async () =>
    (await t.database.db.select({ id: deviceTypeAlarms.semaphoreId }).from(deviceTypeAlarms).where(eq(deviceTypeAlarms.typeId, typeId))).map((a) => a.id).sort();

  /** Puts the type back the way an older release seeded it. */
  const makeLegacy = async () => {
    const db = t.database.db;
    await db.delete(deviceTypeParams).where(and(eq(deviceTypeParams.typeId, typeId), eq(deviceTypeParams.semaphoreId, '01121001')));
    for (const [to, from] of Object.entries(newToOld)) {
      await db.update(deviceTypeParams).set({ semaphoreId: from }).where(and(eq(deviceTypeParams.typeId, typeId), eq(deviceTypeParams.semaphoreId, to)));
      await db.update(deviceTypeAlarms).set({ semaphoreId: from }).where(and(eq(deviceTypeAlarms.typeId, typeId), eq(deviceTypeAlarms.semaphoreId, to)));
    }
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const [bmu] = await t.database.db.select({ id: deviceTypes.id }).from(deviceTypes).where(eq(deviceTypes.code, 'BMU'));
    typeId = bmu!.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('a fresh install has the field’s ids: pack voltage 01111001, cells 01117001…, SOC 02109001', async () => {
    const ids = await params();
    expect(ids).toEqual(expect.arrayContaining(['01111001', '01112001', '01117001', '01117016', '01119001', '02109001', '02110001', '01121001', '02111001', '02112001', '02116001', '02117001', '02120001']));
    expect(ids).toHaveLength(BMU_PARAMS.length);
  });

  it('moves an untouched type to the new ids at start-up, and leaves one an administrator edited alone', async () => {
    await makeLegacy();
    expect(await params()).toContain('10000001');
    await seed(t.database.db, { adminUsername: 'admin' });
    const moved = await params();
    expect(moved.sort()).toEqual(BMU_PARAMS.map((p) => p.semaphoreId).sort());
    expect(await alarms()).toEqual(expect.arrayContaining(['02109001', '01119001']));
    expect(await alarms()).not.toContain('10000003');

    // Edited: a parameter renamed by the administrator. Nothing moves.
    await makeLegacy();
    await t.database.db.execute(sql`update device_type_params set name_en = 'Pack volts' where type_id = ${typeId} and semaphore_id = '10000001'`);
    await seed(t.database.db, { adminUsername: 'admin' });
    const kept = await params();
    expect(kept).toContain('10000001');
    expect(kept).not.toContain('01111001');

    // The edit undone, the next start-up moves it after all: the type is the fresh install's again.
    const packVoltage = BMU_PARAMS.find((p) => p.semaphoreId === LEGACY_BMU_IDS['10000001'])!;
    await t.database.db.execute(sql`update device_type_params set name_en = ${packVoltage.nameEn} where type_id = ${typeId} and semaphore_id = '10000001'`);
    await seed(t.database.db, { adminUsername: 'admin' });
    expect((await params()).sort()).toEqual(BMU_PARAMS.map((p) => p.semaphoreId).sort());
  });
});
