import { describe, expect, it } from 'vitest';
import { paramProblems } from '@iot/contract/plain';
// The contract's schema in a test (node, not the bundle): the rows the page sends pass it.
import { paramSchema } from '@iot/contract';
import { newParamRow, recheck, removedIds, shownProblems, toParamInput, type ParamItem, type ParamRow } from './param-rows';

// The checks of the rows are the contract's: packages/contract/src/devicetype-rules.test.ts.
const row = (patch: Partial<ParamRow>): ParamRow => ({ ...newParamRow(), semaphoreId: 'S1', name: '电压', ...patch });

describe('parameter rows', () => {
  it('that pass the shared checks become bodies the API schema accepts', () => {
    const rows = [
      row({ semaphoreId: 'A', dataType: 'number', precision: 2, min: 0, max: 5 }),
      row({ semaphoreId: 'B', dataType: 'integer', min: -130, max: 0 }),
      row({ semaphoreId: 'C', dataType: 'boolean', writable: true }),
      row({
        semaphoreId: 'D',
        dataType: 'enum',
        enumValues: [{ value: '0', label: '静置', labelEn: 'Idle', labelEs: '', labelJa: '' }],
      }),
      row({ semaphoreId: 'E', dataType: 'text' }),
    ];
    expect(paramProblems(rows)).toEqual([]);
    for (const [i, r] of rows.entries()) expect(paramSchema.safeParse(toParamInput(r, i)).success).toBe(true);
  });

  it('a new row needs its semaphore id and name', () => {
    expect(paramProblems([newParamRow()]).map((p) => `${p.field}:${p.reason}`)).toEqual([
      'semaphoreId:semaphoreIdRequired',
      'name:nameRequired',
    ]);
  });

  it('send only what applies to the data type, in row order', () => {
    const input = toParamInput(
      row({ dataType: 'boolean', precision: 3, min: 1, max: 2, enumValues: [{ value: '1', label: 'x', labelEn: '', labelEs: '', labelJa: '' }] }),
      4,
    );
    expect(input).toMatchObject({ precision: 0, min: null, max: null, enumValues: [], sort: 5 });
  });

  it('list removed semaphore ids', () => {
    expect(removedIds(['A', 'B', 'B'], [row({ semaphoreId: 'A' })])).toEqual(['B']);
  });

  it('show the problems of the cells checked and keep the rest as they were', () => {
    const items: ParamItem[] = [row({ semaphoreId: 'A' }), row({ semaphoreId: 'A' }), row({ semaphoreId: 'C', name: '' })].map(
      (r, i) => ({ key: 10 + i, row: r }),
    );
    // Only the cells named are checked: row 3's empty name is not shown yet.
    const shown = recheck(items, new Map(), [{ index: 1, field: 'semaphoreId' }]);
    expect([...shown.keys()]).toEqual([11]);
    expect(shown.get(11)).toEqual({ semaphoreId: { key: 'refusals:semaphoreTwice', params: { id: 'A' } } });
    // Nothing changed: the same map (no cell is drawn again).
    expect(recheck(items, shown, [{ index: 0, field: 'semaphoreId' }])).toBe(shown);
    // Fixed, the problem goes; a cell showing one is checked again without being named.
    const fixed = items.map((it, i) => (i === 1 ? { ...it, row: { ...it.row, semaphoreId: 'B' } } : it));
    expect(recheck(fixed, shown, []).size).toBe(0);
    // On saving, every problem is shown, by row key.
    expect([...shownProblems(items, paramProblems(items.map((it) => it.row))).keys()]).toEqual([11, 12]);
    // A removed row's problems go with it.
    expect(recheck(items.slice(0, 1), shown, []).size).toBe(0);
  });
});
