import { describe, expect, it } from 'vitest';
import { alarmRuleSchema } from '@iot/contract';
import { fitToParam, newRuleRow, normalizeThreshold, ruleProblems, toRuleInput, type ParamInfo, type RuleRow } from './alarm-rules';

const params: ParamInfo[] = [
  { semaphoreId: 'V', dataType: 'number', enumValues: [] },
  { semaphoreId: 'N', dataType: 'integer', enumValues: [] },
  { semaphoreId: 'B', dataType: 'boolean', enumValues: [] },
  { semaphoreId: 'E', dataType: 'enum', enumValues: [{ value: '0' }, { value: '3' }] },
  { semaphoreId: 'T', dataType: 'text', enumValues: [] },
];
const rule = (patch: Partial<RuleRow>): RuleRow => ({ ...newRuleRow(), message: '告警', ...patch });
const keys = (rows: RuleRow[]) => ruleProblems(rows, params).map((p) => `${p.index}.${p.field}:${p.key.split('.').pop()}`);

describe('alarm rule checks', () => {
  it('accepts valid rules for each data type, and the contract agrees', () => {
    const rows = [
      rule({ semaphoreId: 'V', comparison: 'gt', threshold: 3.65 }),
      rule({ semaphoreId: 'V', comparison: 'outside', threshold: -20, threshold2: 55 }),
      rule({ semaphoreId: 'N', comparison: 'lt', threshold: -110 }),
      rule({ semaphoreId: 'B', comparison: 'eq', threshold: 'true' }),
      rule({ semaphoreId: 'E', comparison: 'ne', threshold: '3' }),
      rule({ semaphoreId: 'T', comparison: 'eq', threshold: 'ERR' }),
    ];
    expect(ruleProblems(rows, params)).toEqual([]);
    for (const r of rows) {
      const input = toRuleInput(r, params.find((p) => p.semaphoreId === r.semaphoreId));
      expect(alarmRuleSchema.safeParse(input).success).toBe(true);
    }
  });

  it('allows only = and ≠ for boolean, enum and text parameters', () => {
    expect(keys([rule({ semaphoreId: 'E', comparison: 'gt', threshold: '3' })])).toEqual(['0.comparison:comparisonNotAllowed']);
    expect(keys([rule({ semaphoreId: 'B', comparison: 'inside', threshold: 'true' })])).toEqual(['0.comparison:comparisonNotAllowed']);
  });

  it('checks thresholds against the data type', () => {
    expect(keys([rule({ semaphoreId: 'V', threshold: null })])).toEqual(['0.threshold:numberRequired']);
    expect(keys([rule({ semaphoreId: 'N', threshold: 1.5 })])).toEqual(['0.threshold:integerRequired']);
    expect(keys([rule({ semaphoreId: 'B', comparison: 'eq', threshold: 'yes' })])).toEqual(['0.threshold:booleanRequired']);
    expect(keys([rule({ semaphoreId: 'E', comparison: 'eq', threshold: '9' })])).toEqual(['0.threshold:enumRequired']);
  });

  it('needs a second threshold above the first for ranges', () => {
    expect(keys([rule({ semaphoreId: 'V', comparison: 'inside', threshold: 1 })])).toEqual(['0.threshold2:secondRequired']);
    expect(keys([rule({ semaphoreId: 'V', comparison: 'inside', threshold: 5, threshold2: 5 })])).toEqual([
      '0.threshold2:rangeOrder',
    ]);
  });

  it('requires the parameter and the message, bounds the hold time', () => {
    expect(keys([rule({ message: ' ', holdSeconds: 86_401 })])).toEqual([
      '0.semaphoreId:paramRequired',
      '0.message:messageRequired',
      '0.holdSeconds:holdRange',
    ]);
    expect(keys([rule({ semaphoreId: 'gone', threshold: 1 })])).toEqual(['0.semaphoreId:paramUnknown']);
  });

  it('sends numbers for numeric parameters, strings otherwise, and no second threshold outside ranges', () => {
    expect(toRuleInput(rule({ semaphoreId: 'V', comparison: 'gt', threshold: 2, threshold2: 9 }), params[0])).toMatchObject({
      threshold: 2,
      threshold2: null,
    });
    expect(toRuleInput(rule({ semaphoreId: 'E', comparison: 'eq', threshold: '3' }), params[3])).toMatchObject({ threshold: '3' });
  });
});

describe('switching a rule to another parameter', () => {
  it('keeps what still fits and resets the rest', () => {
    const numeric = rule({ semaphoreId: 'V', comparison: 'outside', threshold: 5, threshold2: 9 });
    expect(fitToParam(numeric, params[1])).toEqual({});
    expect(fitToParam(numeric, params[3])).toEqual({ comparison: 'eq', threshold: '0', threshold2: null });
    expect(fitToParam(rule({ comparison: 'ne', threshold: 'true' }), params[2])).toEqual({ threshold2: null });
    expect(fitToParam(rule({ comparison: 'eq', threshold: 'x' }), params[0])).toEqual({ threshold: null });
  });
  it('reads 0/1 booleans as false/true', () => {
    expect(normalizeThreshold(rule({ threshold: '1' }), params[2]).threshold).toBe('true');
    expect(normalizeThreshold(rule({ threshold: '1' }), params[4]).threshold).toBe('1');
  });
});
