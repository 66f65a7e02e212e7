import { describe, expect, it } from 'vitest';
import {
  alarmRuleProblems,
  enumValueProblems,
  paramProblems,
  type AlarmRuleDraft,
  type ParamDraft,
  type ParamInfo,
  type RowProblem,
} from './devicetype-rules.js';
import { alarmRuleSchema, paramSchema } from './devices.js';

const brief = (problems: RowProblem[]) => problems.map((p) => `${p.index}.${p.field}:${p.reason}`);

// ---------------------------------------------------------------- parameters

// A valid parameter with the API's defaults, then the fields a test changes.
const param = (patch: Partial<ParamDraft>): ParamDraft => ({
  ...paramSchema.parse({ semaphoreId: 'S1', name: '电压', dataType: 'number' }),
  ...patch,
});
const option = (value: string, label = 'x') => ({ value, label, labelEn: '', labelEs: '', labelJa: '' });

describe('parameter checks', () => {
  it('accept a valid parameter of each data type, and so does the API schema', () => {
    const rows = [
      param({ semaphoreId: 'A', dataType: 'number', min: 0, max: 5 }),
      param({ semaphoreId: 'B', dataType: 'integer', min: -130, max: 0 }),
      param({ semaphoreId: 'C', dataType: 'boolean' }),
      param({ semaphoreId: 'D', dataType: 'enum', enumValues: [option('0', '静置')] }),
      param({ semaphoreId: 'E', dataType: 'text' }),
    ];
    expect(paramProblems(rows)).toEqual([]);
    for (const r of rows) expect(paramSchema.safeParse(r).success).toBe(true);
  });

  it('require semaphore id and name, check the id pattern, and name a repeated id on the repeating row', () => {
    expect(brief(paramProblems([param({ semaphoreId: ' ', name: '' })]))).toEqual([
      '0.semaphoreId:semaphoreIdRequired',
      '0.name:nameRequired',
    ]);
    expect(brief(paramProblems([param({ semaphoreId: 'a b' })]))).toEqual(['0.semaphoreId:codePattern']);
    expect(paramProblems([param({ semaphoreId: 'X' }), param({ semaphoreId: ' X ' })])).toEqual([
      { index: 1, field: 'semaphoreId', reason: 'semaphoreTwice', params: { id: 'X' } },
    ]);
    expect(paramProblems([param({ unit: 'x'.repeat(17) })])).toEqual([
      { index: 0, field: 'unit', reason: 'tooLong', params: { max: 16 } },
    ]);
  });

  it('want min ≤ max for numeric types only, and values for an enum', () => {
    expect(brief(paramProblems([param({ min: 5, max: 1 })]))).toEqual(['0.max:minAboveMax']);
    expect(brief(paramProblems([param({ dataType: 'text', min: 5, max: 1 })]))).toEqual([]);
    expect(brief(paramProblems([param({ dataType: 'enum' })]))).toEqual(['0.enumValues:enumRequired']);
    expect(brief(paramProblems([param({ dataType: 'enum', enumValues: [option('1'), option('1')] })]))).toEqual([
      '0.enumValues:enumInvalid',
    ]);
  });

  it('are what the API schema refuses, with the same reasons in its messages', () => {
    const res = paramSchema.safeParse(param({ min: 5, max: 1 }));
    expect(res.error?.issues).toMatchObject([{ path: ['max'], message: 'Max must not be below min' }]);
  });

  it('check enum values one by one', () => {
    expect(enumValueProblems([option(''), option('a', ''), option('a'), option('x'.repeat(33))])).toEqual([
      { index: 0, field: 'value', reason: 'enumValueRequired' },
      { index: 1, field: 'label', reason: 'enumLabelRequired' },
      { index: 2, field: 'value', reason: 'enumValueTwice', params: { value: 'a' } },
      { index: 3, field: 'value', reason: 'tooLong', params: { max: 32 } },
    ]);
  });
});

// ---------------------------------------------------------------- alarm rules

const params: ParamInfo[] = [
  { semaphoreId: 'V', dataType: 'number', enumValues: [] },
  { semaphoreId: 'N', dataType: 'integer', enumValues: [] },
  { semaphoreId: 'B', dataType: 'boolean', enumValues: [] },
  { semaphoreId: 'E', dataType: 'enum', enumValues: [{ value: '0' }, { value: '3' }] },
  { semaphoreId: 'T', dataType: 'text', enumValues: [] },
];
const rule = (patch: Partial<AlarmRuleDraft>): AlarmRuleDraft => ({
  ...alarmRuleSchema.parse({ semaphoreId: 'V', comparison: 'gt', threshold: 1, level: 2, message: '告警' }),
  ...patch,
});
const ruleBrief = (...rules: Partial<AlarmRuleDraft>[]) => brief(alarmRuleProblems(rules.map(rule), params));

describe('alarm rule checks', () => {
  it('accept valid rules for each data type, and so does the API schema', () => {
    const rows = [
      rule({ semaphoreId: 'V', comparison: 'gt', threshold: 3.65 }),
      rule({ semaphoreId: 'V', comparison: 'outside', threshold: -20, threshold2: 55 }),
      rule({ semaphoreId: 'N', comparison: 'lt', threshold: -110 }),
      rule({ semaphoreId: 'B', comparison: 'eq', threshold: 'true' }),
      rule({ semaphoreId: 'B', comparison: 'ne', threshold: '0' }),
      rule({ semaphoreId: 'E', comparison: 'ne', threshold: '3' }),
      rule({ semaphoreId: 'T', comparison: 'eq', threshold: 'ERR' }),
    ];
    expect(alarmRuleProblems(rows, params)).toEqual([]);
    for (const r of rows) expect(alarmRuleSchema.safeParse(r).success).toBe(true);
  });

  it('name the rule and field that is wrong, with the reason and its values', () => {
    expect(alarmRuleProblems([rule({ semaphoreId: 'nope' })], params)).toEqual([
      { index: 0, field: 'semaphoreId', reason: 'ruleNoParam', params: { id: 'nope' } },
    ]);
    expect(ruleBrief({ semaphoreId: undefined })).toEqual(['0.semaphoreId:ruleParamRequired']);
  });

  it('allow only = and ≠ for boolean, enum and text parameters', () => {
    expect(alarmRuleProblems([rule({ semaphoreId: 'E', comparison: 'gt', threshold: '3' })], params)).toEqual([
      { index: 0, field: 'comparison', reason: 'ruleComparison', params: { allowed: 'eq, ne' } },
    ]);
    expect(ruleBrief({ semaphoreId: 'B', comparison: 'inside', threshold: 'true' })).toEqual(['0.comparison:ruleComparison']);
  });

  it('check thresholds against the data type', () => {
    expect(ruleBrief({ threshold: null })).toEqual(['0.threshold:ruleNumber']);
    expect(ruleBrief({ threshold: 'low' })).toEqual(['0.threshold:ruleNumber']);
    expect(ruleBrief({ semaphoreId: 'N', threshold: 1.5 })).toEqual(['0.threshold:ruleInteger']);
    expect(ruleBrief({ semaphoreId: 'B', comparison: 'eq', threshold: 'yes' })).toEqual(['0.threshold:ruleBoolean']);
    expect(alarmRuleProblems([rule({ semaphoreId: 'E', comparison: 'eq', threshold: '9' })], params)[0]?.params).toEqual({
      values: '0, 3',
    });
    expect(ruleBrief({ semaphoreId: 'T', comparison: 'eq', threshold: ' ' })).toEqual(['0.threshold:ruleText']);
    expect(ruleBrief({ semaphoreId: 'T', comparison: 'eq', threshold: 'x'.repeat(65) })).toEqual(['0.threshold:tooLong']);
  });

  it('need a second threshold above the first for ranges, whole for integers', () => {
    expect(ruleBrief({ comparison: 'inside', threshold: 1 })).toEqual(['0.threshold2:ruleRangeSecond']);
    expect(ruleBrief({ comparison: 'inside', threshold: 5, threshold2: 5 })).toEqual(['0.threshold2:ruleRangeOrder']);
    expect(ruleBrief({ semaphoreId: 'N', comparison: 'outside', threshold: 1, threshold2: 2.5 })).toEqual([
      '0.threshold2:ruleInteger',
    ]);
  });

  it('require a level and the message, bound texts and the hold time', () => {
    expect(ruleBrief({ semaphoreId: '', level: 5, message: ' ', messageJa: 'x'.repeat(129), holdSeconds: 86_401 })).toEqual([
      '0.semaphoreId:ruleParamRequired',
      '0.level:ruleLevel',
      '0.message:ruleMessageRequired',
      '0.messageJa:tooLong',
      '0.holdSeconds:ruleHoldRange',
    ]);
  });
});
