import { COMPARISONS_BY_TYPE, isNumericType, isRangeComparison } from '@iot/contract/plain';
import type { AlarmRuleDraft, AlarmRuleDto, AlarmRuleInput, ParamInfo } from '@iot/contract';

/**
 * The alarm table's rows: what a form row holds, the request body it becomes, and how a row
 * follows a change of its parameter. The checks of the rows are the contract's
 * (`alarmRuleProblems`), the same the API runs.
 */

/** A row of the alarm table: the contract's rule draft, with no parameter picked yet at first. */
export interface RuleRow extends AlarmRuleDraft {
  semaphoreId: string | undefined;
  enabled: boolean;
}

export function newRuleRow(): RuleRow {
  return {
    semaphoreId: undefined,
    comparison: 'gt',
    threshold: null,
    threshold2: null,
    level: 2,
    message: '',
    messageEn: '',
    messageEs: '',
    messageJa: '',
    holdSeconds: 0,
    enabled: true,
  };
}

export function toRuleRow(r: AlarmRuleDto): RuleRow {
  const { id: _id, ...row } = r;
  return row;
}

/** The threshold a parameter starts with when a row switches to it. */
export function defaultThreshold(p: ParamInfo | undefined): number | string | null {
  if (!p || isNumericType(p.dataType)) return null;
  if (p.dataType === 'boolean') return 'true';
  if (p.dataType === 'enum') return p.enumValues[0]?.value ?? null;
  return '';
}

/** The request body: threshold as a number for numeric parameters, a string otherwise. */
export function toRuleInput(row: RuleRow, param: ParamInfo | undefined): AlarmRuleInput {
  const numeric = isNumericType(param?.dataType);
  const threshold = numeric
    ? typeof row.threshold === 'number'
      ? row.threshold
      : Number(row.threshold)
    : String(row.threshold ?? '');
  return {
    semaphoreId: (row.semaphoreId ?? '').trim(),
    comparison: row.comparison,
    threshold,
    threshold2: numeric && isRangeComparison(row.comparison) ? row.threshold2 : null,
    level: row.level,
    message: row.message.trim(),
    messageEn: row.messageEn.trim(),
    messageEs: row.messageEs.trim(),
    messageJa: row.messageJa.trim(),
    holdSeconds: row.holdSeconds ?? 0,
    enabled: row.enabled,
  };
}

/**
 * What changes in a row when it switches to parameter `p`: a comparison the data type allows and
 * a threshold of the right kind (kept when it still fits), no second threshold for non-numbers.
 */
export function fitToParam(row: RuleRow, p: ParamInfo | undefined): Partial<RuleRow> {
  const patch: Partial<RuleRow> = {};
  if (p && !COMPARISONS_BY_TYPE[p.dataType].includes(row.comparison)) {
    patch.comparison = isNumericType(p.dataType) ? 'gt' : 'eq';
  }
  const t = row.threshold;
  const fits =
    p === undefined
      ? false
      : isNumericType(p.dataType)
        ? typeof t === 'number'
        : p.dataType === 'enum'
          ? p.enumValues.some((e) => e.value === t)
          : p.dataType === 'boolean'
            ? t === 'true' || t === 'false'
            : typeof t === 'string';
  if (!fits) patch.threshold = defaultThreshold(p);
  if (!isNumericType(p?.dataType)) patch.threshold2 = null;
  return patch;
}

/** Booleans may be stored as 0/1: the picker offers true/false. */
export function normalizeThreshold(row: RuleRow, p: ParamInfo | undefined): RuleRow {
  if (p?.dataType !== 'boolean') return row;
  return { ...row, threshold: row.threshold === '1' ? 'true' : row.threshold === '0' ? 'false' : row.threshold };
}
