import {
  COMPARISONS_BY_TYPE as ALLOWED,
  RANGE_COMPARISONS,
  type AlarmComparison,
  type Param,
  type RefusalParams,
  type RefusalReason,
} from '@iot/contract';

export interface RuleLike {
  semaphoreId: string;
  comparison: AlarmComparison;
  threshold: number | string;
  threshold2: number | null;
}

export interface RuleProblem {
  /** Field path of the offending value, e.g. `rules.2.threshold`. */
  field: string;
  /** The parameter the rule watches. */
  semaphoreId: string;
  reason: RefusalReason;
  params?: RefusalParams;
}

/**
 * Checks alarm rules against the type's parameters. Returns the first problem, or undefined when
 * every rule is valid.
 */
export function checkRules(
  params: Pick<Param, 'semaphoreId' | 'dataType' | 'enumValues'>[],
  rules: RuleLike[],
): RuleProblem | undefined {
  const bySem = new Map(params.map((p) => [p.semaphoreId, p]));
  for (const [i, r] of rules.entries()) {
    const problem = (f: string, reason: RefusalReason, params?: RefusalParams): RuleProblem => ({
      field: `rules.${i}.${f}`,
      semaphoreId: r.semaphoreId,
      reason,
      ...(params ? { params } : {}),
    });
    const p = bySem.get(r.semaphoreId);
    if (!p) return problem('semaphoreId', 'ruleNoParam', { id: r.semaphoreId });
    if (!ALLOWED[p.dataType].includes(r.comparison)) {
      return problem('comparison', 'ruleComparison', { allowed: ALLOWED[p.dataType].join(', ') });
    }
    const numeric = p.dataType === 'number' || p.dataType === 'integer';
    if (numeric) {
      const n = typeof r.threshold === 'number' ? r.threshold : Number.NaN;
      if (!Number.isFinite(n)) return problem('threshold', 'ruleNumber');
      if (p.dataType === 'integer' && !Number.isInteger(n)) return problem('threshold', 'ruleInteger');
      if (RANGE_COMPARISONS.includes(r.comparison)) {
        if (r.threshold2 === null) return problem('threshold2', 'ruleRangeSecond');
        if (r.threshold2 <= n) return problem('threshold2', 'ruleRangeOrder');
      }
    } else {
      const v = String(r.threshold);
      if (p.dataType === 'boolean' && !['true', 'false', '0', '1'].includes(v)) {
        return problem('threshold', 'ruleBoolean');
      }
      if (p.dataType === 'enum' && !p.enumValues.some((e) => e.value === v)) {
        return problem('threshold', 'ruleEnum', { values: p.enumValues.map((e) => e.value).join(', ') });
      }
    }
  }
  return undefined;
}
