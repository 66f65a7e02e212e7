import { describe, expect, it } from 'vitest';
import { BMU_ALARMS, BMU_PARAMS } from '../../db/seed/bmu.js';
import { alarmRuleSchema, paramSchema } from '@iot/contract';
import { checkRules } from './rules.js';

const params = BMU_PARAMS.map((p) => paramSchema.parse(p));
const rule = (r: object) => alarmRuleSchema.parse({ level: 1, message: 'm', ...r });

describe('alarm rules are validated against the parameter’s data type', () => {
  it('the built-in BMU rules are valid', () => {
    expect(checkRules(params, BMU_ALARMS.map((r) => alarmRuleSchema.parse(r)))).toBeUndefined();
  });

  it('names the rule and field that is wrong', () => {
    expect(checkRules(params, [rule({ semaphoreId: 'nope', comparison: 'gt', threshold: 1 })])).toEqual({
      field: 'rules.0.semaphoreId',
      semaphoreId: 'nope',
      reason: 'ruleNoParam',
      params: { id: 'nope' },
    });
    // Order comparisons make no sense for an enum or a boolean.
    expect(checkRules(params, [rule({ semaphoreId: '10000006', comparison: 'gt', threshold: '1' })])?.field).toBe('rules.0.comparison');
    expect(checkRules(params, [rule({ semaphoreId: '10000030', comparison: 'lt', threshold: 'true' })])?.field).toBe('rules.0.comparison');
    // Numbers need numbers; integers need integers; ranges need an upper bound above the lower.
    expect(checkRules(params, [rule({ semaphoreId: '10000003', comparison: 'lt', threshold: 'low' })])?.reason).toBe('ruleNumber');
    expect(checkRules(params, [rule({ semaphoreId: '10000005', comparison: 'gt', threshold: 1.5 })])?.reason).toBe('ruleInteger');
    expect(checkRules(params, [rule({ semaphoreId: '10000201', comparison: 'inside', threshold: 10 })])?.field).toBe('rules.0.threshold2');
    expect(checkRules(params, [rule({ semaphoreId: '10000201', comparison: 'inside', threshold: 10, threshold2: 5 })])?.field).toBe('rules.0.threshold2');
    // Enum thresholds must be one of the values; booleans true/false.
    expect(checkRules(params, [rule({ semaphoreId: '10000006', comparison: 'eq', threshold: '9' })])?.params).toEqual({ values: '0, 1, 2, 3' });
    expect(checkRules(params, [rule({ semaphoreId: '10000030', comparison: 'eq', threshold: 'yes' })])?.field).toBe('rules.0.threshold');
    expect(checkRules(params, [rule({ semaphoreId: '10000030', comparison: 'eq', threshold: 'true' })])).toBeUndefined();
  });
});
