import { COMPARISONS_BY_TYPE as ALLOWED, RANGE_COMPARISONS, type AlarmComparison, type Param } from '@iot/contract';

export interface RuleLike {
  semaphoreId: string;
  comparison: AlarmComparison;
  threshold: number | string;
  threshold2: number | null;
}

/**
 * Checks alarm rules against the type's parameters. Returns the first problem as a field path
 * (`rules.2.threshold`) and a message, or undefined when every rule is valid.
 */
export function checkRules(
  params: Pick<Param, 'semaphoreId' | 'dataType' | 'enumValues'>[],
  rules: RuleLike[],
): { field: string; message: string } | undefined {
  const bySem = new Map(params.map((p) => [p.semaphoreId, p]));
  for (const [i, r] of rules.entries()) {
    const at = (f: string) => `rules.${i}.${f}`;
    const p = bySem.get(r.semaphoreId);
    if (!p) return { field: at('semaphoreId'), message: `no parameter ${r.semaphoreId} in this type` };
    if (!ALLOWED[p.dataType].includes(r.comparison)) {
      return { field: at('comparison'), message: `a ${p.dataType} parameter can only be compared with ${ALLOWED[p.dataType].join(', ')}` };
    }
    const numeric = p.dataType === 'number' || p.dataType === 'integer';
    if (numeric) {
      const n = typeof r.threshold === 'number' ? r.threshold : Number.NaN;
      if (!Number.isFinite(n)) return { field: at('threshold'), message: 'a number is required' };
      if (p.dataType === 'integer' && !Number.isInteger(n)) return { field: at('threshold'), message: 'an integer is required' };
      if (RANGE_COMPARISONS.includes(r.comparison)) {
        if (r.threshold2 === null) return { field: at('threshold2'), message: 'a range needs a second threshold' };
        if (r.threshold2 <= n) return { field: at('threshold2'), message: 'the upper bound must be above the lower bound' };
      }
    } else {
      const v = String(r.threshold);
      if (p.dataType === 'boolean' && !['true', 'false', '0', '1'].includes(v)) {
        return { field: at('threshold'), message: 'true or false is required' };
      }
      if (p.dataType === 'enum' && !p.enumValues.some((e) => e.value === v)) {
        return { field: at('threshold'), message: `one of ${p.enumValues.map((e) => e.value).join(', ')} is required` };
      }
    }
  }
  return undefined;
}
