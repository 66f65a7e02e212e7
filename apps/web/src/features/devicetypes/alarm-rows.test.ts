import { describe, expect, it } from 'vitest';
import { alarmRuleProblems } from '@iot/contract/plain';
// The contract's schema in a test (node, not the bundle): the rows the page sends pass it.
import { alarmRuleSchema } from '@iot/contract';
import type { ParamInfo } from '@iot/contract';
import { fitToParam, newRuleRow, normalizeThreshold, toRuleInput, type RuleRow } from './alarm-rows';

// The checks of the rows are the contract's: packages/contract/src/devicetype-rules.test.ts.
const TYPES = { V: 'number', N: 'integer', B: 'boolean', E: 'enum', T: 'text' } as const;
const params: ParamInfo[] = Object.entries(TYPES).map(([semaphoreId, dataType]) => ({
  semaphoreId,
  dataType,
  enumValues: dataType === 'enum' ? [{ value: '0' }, { value: '3' }] : [],
}));
const rule = (patch: Partial<RuleRow>): RuleRow => ({ ...newRuleRow(), message: '告警', ...patch });

describe('alarm rule rows', () => {
  it('that pass the shared checks become bodies the API schema accepts', () => {
    // A row switched to each parameter and given a threshold of its kind.
    const thresholds: Record<string, RuleRow['threshold']> = { V: 3.65, N: -110, B: 'false', E: '3', T: 'ERR' };
    const rows = params.map((p) => {
      const row = rule({ semaphoreId: p.semaphoreId, comparison: 'outside', threshold2: 9.5 });
      return { ...row, ...fitToParam(row, p), threshold: thresholds[p.semaphoreId] ?? null };
    });
    rows[0] = { ...rows[0]!, threshold: -20, threshold2: 55 };
    rows[1] = { ...rows[1]!, comparison: 'lt' };
    expect(alarmRuleProblems(rows, params)).toEqual([]);
    for (const r of rows) {
      const input = toRuleInput(r, params.find((p) => p.semaphoreId === r.semaphoreId));
      expect(alarmRuleSchema.safeParse(input).success).toBe(true);
    }
  });

  it('a new row needs its parameter, threshold and message', () => {
    expect(alarmRuleProblems([{ ...newRuleRow() }], params).map((p) => `${p.field}:${p.reason}`)).toEqual([
      'semaphoreId:ruleParamRequired',
      'message:ruleMessageRequired',
    ]);
  });

  it('send numbers for numeric parameters, strings otherwise, and no second threshold outside ranges', () => {
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
