import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@iot/contract';
import { apiAs, buildTestApp, type TestApp } from './helpers.js';

describe('device types with parameter and alarm settings', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  const { call, ok } = apiAs(() => t, tok);

  beforeAll(async () => {
    t = await buildTestApp();
    tok.admin = await t.login();
    await t.createUser({ username: 'ops', password: 'ops-pass-1', role: 'ADMIN' });
    tok.ops = await t.login('ops', 'ops-pass-1');
  });
  afterAll(() => t.close());

  it('ships the battery management unit type with its parameters and alarm rules', async () => {
    const list = await ok('ops', 'GET', '/devicetype/list?code=BMU');
    expect(list.items[0]).toMatchObject({
      code: 'BMU',
      name: '电池管理单元',
      nameEn: 'Battery management unit',
      nameEs: 'Unidad de gestión de baterías',
      nameJa: 'バッテリー管理ユニット',
      builtin: true,
      recordTrack: true,
    });
    expect(list.items[0].paramCount).toBeGreaterThan(30);
    const params = await ok('ops', 'GET', `/devicetype/setparam?id=${list.items[0].id}`);
    const names = params.map((p: { nameEn: string }) => p.nameEn);
    for (const n of ['Pack voltage', 'Current', 'State of charge', 'State of health', 'Cell count', 'Cell 16 voltage', 'Board temperature', 'Ambient temperature', 'State', 'Signal strength', 'Longitude', 'Total charge', 'Total discharge', 'Energy used']) {
      expect(names).toContain(n);
    }
    expect(params.find((p: { semaphoreId: string }) => p.semaphoreId === '10000006').enumValues).toHaveLength(4);
    const rules = await ok('ops', 'GET', `/devicetype/setalarm?id=${list.items[0].id}`);
    expect(rules.find((r: { semaphoreId: string }) => r.semaphoreId === '02109001')).toMatchObject({ comparison: 'lt', threshold: 10, level: 2 });
    expect(rules.find((r: { semaphoreId: string }) => r.semaphoreId === '10000006').threshold).toBe('3');
  });

  it('only the super administrator changes the built-in type; nobody deletes it', async () => {
    const [bmu] = (await ok('ops', 'GET', '/devicetype/list?code=BMU')).items;
    expect((await call('ops', 'POST', '/devicetype/edittype', { id: bmu.id, code: 'BMU', name: 'Mine' })).code).toBe(ErrorCode.FORBIDDEN);
    expect((await call('admin', 'DELETE', `/devicetype/deletetype?id=${bmu.id}`)).code).toBe(ErrorCode.FORBIDDEN);
    await ok('admin', 'POST', '/devicetype/edittype', { id: bmu.id, code: 'BMU', name: '电池管理单元', remarks: 'edited', recordTrack: true });
  });

  it('creates a type, saves parameters and rules, and validates them by field', async () => {
    const { id } = await ok('ops', 'POST', '/devicetype/addtype', { code: 'METER', name: '电表', nameEs: 'Medidor', remarks: 'Power meter' });
    // The name filter matches the name in any language; untranslated names stay empty.
    const found = (await ok('ops', 'GET', '/devicetype/list?name=medidor')).items;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ id, name: '电表', nameEn: '', nameEs: 'Medidor', nameJa: '' });
    expect((await ok('ops', 'GET', '/devicetype/typeoptionslist')).find((o: { id: number }) => o.id === id)).toMatchObject({ nameEs: 'Medidor' });
    expect((await call('ops', 'POST', '/devicetype/addtype', { code: 'METER', name: 'Again' }))).toMatchObject({ code: ErrorCode.CONFLICT, data: { field: 'code' } });

    const params = [
      { semaphoreId: '20000001', name: '电压', nameEn: 'Voltage', unit: 'V', dataType: 'number', precision: 1, min: 0, max: 400, sort: 1 },
      { semaphoreId: '20000002', name: '模式', nameEn: 'Mode', dataType: 'enum', enumValues: [{ value: 'a', label: '自动' }, { value: 'm', label: '手动' }], writable: true, sort: 2 },
    ];
    const dup = await call('ops', 'POST', '/devicetype/addsetparam', { id, params: [params[0], params[0]] });
    expect(dup).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'params.1.semaphoreId' } });
    const badRange = await call('ops', 'POST', '/devicetype/addsetparam', { id, params: [{ ...params[0], min: 10, max: 1 }] });
    expect(badRange).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'params.0.max' } });
    const emptyEnum = await call('ops', 'POST', '/devicetype/addsetparam', { id, params: [{ ...params[1], enumValues: [] }] });
    expect(emptyEnum.data.field).toBe('params.0.enumValues');
    await ok('ops', 'POST', '/devicetype/addsetparam', { id, params });
    expect((await ok('ops', 'GET', `/devicetype/setparam?id=${id}`)).map((p: { semaphoreId: string }) => p.semaphoreId)).toEqual(['20000001', '20000002']);

    const rules = [
      { semaphoreId: '20000001', comparison: 'outside', threshold: 180, threshold2: 260, level: 1, message: '电压异常', messageEn: 'Voltage out of range', holdSeconds: 5 },
      { semaphoreId: '20000002', comparison: 'eq', threshold: 'm', level: 4, message: '手动模式', enabled: false },
    ];
    const wrong = await call('ops', 'POST', '/devicetype/addsetalarm', { id, rules: [{ ...rules[1], comparison: 'gt' }] });
    expect(wrong).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'rules.0.comparison' } });
    const level = await call('ops', 'POST', '/devicetype/addsetalarm', { id, rules: [{ ...rules[0], level: 5 }] });
    expect(level.data.field).toBe('rules.0.level');
    await ok('ops', 'POST', '/devicetype/addsetalarm', { id, rules });
    const saved = await ok('ops', 'GET', `/devicetype/setalarm?id=${id}`);
    expect(saved).toMatchObject([
      { comparison: 'outside', threshold: 180, threshold2: 260, holdSeconds: 5, enabled: true },
      { comparison: 'eq', threshold: 'm', enabled: false },
    ]);

    // A parameter an alarm rule uses cannot be removed.
    const orphan = await call('ops', 'POST', '/devicetype/addsetparam', { id, params: [params[1]] });
    expect(orphan.code).toBe(ErrorCode.CONFLICT);
    expect(orphan.message).toContain('20000001');

    const item = await ok('ops', 'GET', `/devicetype/item?id=${id}`);
    expect(item).toMatchObject({ paramCount: 2, alarmCount: 2, builtin: false });
    const logs = (await ok('admin', 'GET', '/logs/list?entity=devicetype')).items.map((l: { action: string }) => l.action);
    expect(logs).toEqual(expect.arrayContaining(['devicetype.add', 'devicetype.setparam', 'devicetype.setalarm']));

    await ok('ops', 'DELETE', `/devicetype/deletetype?id=${id}`);
    expect((await call('ops', 'GET', `/devicetype/item?id=${id}`)).code).toBe(ErrorCode.NOT_FOUND);
  });

  it('applies the same rule checks as the console (contract devicetype-rules): whole-number ranges, non-empty text', async () => {
    const { id } = await ok('ops', 'POST', '/devicetype/addtype', { code: 'RULES', name: '规则' });
    await ok('ops', 'POST', '/devicetype/addsetparam', {
      id,
      params: [
        { semaphoreId: 'N', name: '计数', dataType: 'integer' },
        { semaphoreId: 'T', name: '文本', dataType: 'text' },
      ],
    });
    const base = { level: 1, message: '告警' };
    const range = await call('ops', 'POST', '/devicetype/addsetalarm', {
      id,
      rules: [{ ...base, semaphoreId: 'N', comparison: 'inside', threshold: 1, threshold2: 2.5 }],
    });
    expect(range).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'rules.0.threshold2', reason: 'ruleInteger' } });
    const text = await call('ops', 'POST', '/devicetype/addsetalarm', {
      id,
      rules: [{ ...base, semaphoreId: 'T', comparison: 'eq', threshold: '  ' }],
    });
    expect(text).toMatchObject({ code: ErrorCode.VALIDATION, data: { field: 'rules.0.threshold', reason: 'ruleText' } });
    const dup = await call('ops', 'POST', '/devicetype/addsetparam', {
      id,
      params: [
        { semaphoreId: 'N', name: 'a', dataType: 'integer' },
        { semaphoreId: 'N', name: 'b', dataType: 'integer' },
      ],
    });
    expect(dup).toMatchObject({ data: { field: 'params.1.semaphoreId', reason: 'semaphoreTwice', params: { id: 'N' } } });
    await ok('ops', 'POST', '/devicetype/addsetalarm', {
      id,
      rules: [
        { ...base, semaphoreId: 'N', comparison: 'inside', threshold: 1, threshold2: 3 },
        { ...base, semaphoreId: 'T', comparison: 'ne', threshold: 'OK' },
      ],
    });
  });

  it('lists are paged, filtered and sorted on the server', async () => {
    for (const code of ['A1', 'A2', 'A3']) await ok('ops', 'POST', '/devicetype/addtype', { code, name: `Type ${code}` });
    const page = await ok('ops', 'GET', '/devicetype/list?name=Type%20A&limit=2&sort=code&order=desc');
    expect(page.total).toBe(3);
    expect(page.items.map((i: { code: string }) => i.code)).toEqual(['A3', 'A2']);
    const options = await ok('ops', 'GET', '/devicetype/typeoptionslist');
    expect(options.map((o: { code: string }) => o.code)).toEqual(expect.arrayContaining(['BMU', 'A1']));
  });
});
