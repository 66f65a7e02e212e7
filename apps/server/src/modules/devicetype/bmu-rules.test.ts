import { describe, expect, it } from 'vitest';
import { alarmRuleProblems, alarmRuleSchema, paramProblems, paramSchema } from '@iot/contract';
import { BMU_ALARMS, BMU_PARAMS } from '../../db/seed/bmu.js';

// The checks themselves are the contract's (packages/contract/src/devicetype-rules.test.ts).
describe('the built-in battery management unit type', () => {
  it('passes the shared parameter and alarm rule checks', () => {
    const params = BMU_PARAMS.map((p) => paramSchema.parse(p));
    expect(paramProblems(params)).toEqual([]);
    expect(alarmRuleProblems(BMU_ALARMS.map((r) => alarmRuleSchema.parse(r)), params)).toEqual([]);
  });
});
