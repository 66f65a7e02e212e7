import { describe, expect, it } from 'vitest';
import { paramSchema } from '@iot/contract';
import { newParamRow, paramProblems, removedIds, toParamInput, type ParamRow } from './param-rules';

const row = (patch: Partial<ParamRow>): ParamRow => ({ ...newParamRow(), semaphoreId: 'S1', name: '电压', ...patch });
const keys = (rows: ParamRow[]) => paramProblems(rows).map((p) => `${p.index}.${p.field}:${p.key.split('.').pop()}`);

describe('parameter checks', () => {
  it('accepts a valid row of each data type, and the contract agrees', () => {
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

  it('requires semaphore id and name, checks the id pattern and uniqueness after trimming', () => {
    expect(keys([row({ semaphoreId: ' ', name: '' })])).toEqual([
      '0.semaphoreId:semaphoreIdRequired',
      '0.name:nameRequired',
    ]);
    expect(keys([row({ semaphoreId: 'a b' })])).toEqual(['0.semaphoreId:semaphoreIdPattern']);
    expect(keys([row({ semaphoreId: 'X' }), row({ semaphoreId: ' X ' })])).toEqual([
      '0.semaphoreId:semaphoreIdDuplicate',
      '1.semaphoreId:semaphoreIdDuplicate',
    ]);
  });

  it('wants min ≤ max for numeric types only, and values for an enum', () => {
    expect(keys([row({ min: 5, max: 1 })])).toEqual(['0.max:minAboveMax']);
    expect(keys([row({ dataType: 'text', min: 5, max: 1 })])).toEqual([]);
    expect(keys([row({ dataType: 'enum' })])).toEqual(['0.enumValues:enumRequired']);
    const twice = { value: '1', label: 'a', labelEn: '', labelEs: '', labelJa: '' };
    expect(keys([row({ dataType: 'enum', enumValues: [twice, twice] })])).toEqual(['0.enumValues:enumInvalid']);
  });

  it('sends only what applies to the data type, in row order', () => {
    const input = toParamInput(
      row({ dataType: 'boolean', precision: 3, min: 1, max: 2, enumValues: [{ value: '1', label: 'x', labelEn: '', labelEs: '', labelJa: '' }] }),
      4,
    );
    expect(input).toMatchObject({ precision: 0, min: null, max: null, enumValues: [], sort: 5 });
  });

  it('lists removed semaphore ids', () => {
    expect(removedIds(['A', 'B', 'B'], [row({ semaphoreId: 'A' })])).toEqual(['B']);
  });
});
