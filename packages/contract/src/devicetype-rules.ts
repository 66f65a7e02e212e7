import { ALARM_LIMITS, PARAM_LIMITS, PATTERNS } from './limits.js';
import type { RefusalParams, RefusalReason } from './refusals.js';

/**
 * The checks of a device type's parameter list and alarm rules, in one place: the parameter and
 * alarm settings pages run them on every edit, the API runs them before it saves (the zod
 * schemas check each field's shape; these check what depends on other fields, rows or the
 * type's parameters). Each problem names its row and field and says why with a refusal reason,
 * which the console translates and the API answers.
 */

export const PARAM_DATA_TYPES = ['number', 'integer', 'boolean', 'enum', 'text'] as const;
export type ParamDataType = (typeof PARAM_DATA_TYPES)[number];

export const ALARM_COMPARISONS = ['gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'outside', 'inside'] as const;
export type AlarmComparison = (typeof ALARM_COMPARISONS)[number];
/** Comparisons that make sense for each data type: order only for numbers. */
export const COMPARISONS_BY_TYPE: Record<ParamDataType, readonly AlarmComparison[]> = {
  number: ALARM_COMPARISONS,
  integer: ALARM_COMPARISONS,
  boolean: ['eq', 'ne'],
  enum: ['eq', 'ne'],
  text: ['eq', 'ne'],
};
/** Comparisons that need a second threshold (a range). */
export const RANGE_COMPARISONS: readonly AlarmComparison[] = ['outside', 'inside'];
/** How a boolean threshold may be written. */
export const BOOLEAN_THRESHOLDS = ['true', 'false', '0', '1'] as const;

/** Whether a data type (a `ParamDataType`, or a stored column's text) is number or integer. */
export const isNumericType = (t: string | null | undefined) => t === 'number' || t === 'integer';
export const isRangeComparison = (c: AlarmComparison | undefined) => c !== undefined && RANGE_COMPARISONS.includes(c);

/** A problem of one row of a list: the field it belongs to and why. */
export interface RowProblem<F extends string = string> {
  index: number;
  field: F;
  reason: RefusalReason;
  params?: RefusalParams;
}

type Text = string | null | undefined;
const trimmed = (v: Text) => (v ?? '').trim();

// ---------------------------------------------------------------- parameters

export interface EnumOptionDraft {
  value: string;
  label: string;
  labelEn: string;
  labelEs: string;
  labelJa: string;
}

/** A parameter as a form holds it or the API receives it. */
export interface ParamDraft {
  semaphoreId: string;
  name: string;
  nameEn: string;
  nameEs: string;
  nameJa: string;
  unit: string;
  groupName: string;
  dataType: ParamDataType;
  min: number | null;
  max: number | null;
  enumValues: readonly EnumOptionDraft[];
}
export type ParamField = keyof ParamDraft;

/** Problems of one parameter's enum values (the enum editor shows them value by value). */
export function enumValueProblems(values: readonly EnumOptionDraft[]): RowProblem<keyof EnumOptionDraft>[] {
  const out: RowProblem<keyof EnumOptionDraft>[] = [];
  const seen = new Set<string>();
  values.forEach((e, index) => {
    const value = trimmed(e.value);
    if (!value) out.push({ index, field: 'value', reason: 'enumValueRequired' });
    else if (value.length > PARAM_LIMITS.enumValue) {
      out.push({ index, field: 'value', reason: 'tooLong', params: { max: PARAM_LIMITS.enumValue } });
    } else if (seen.has(value)) out.push({ index, field: 'value', reason: 'enumValueTwice', params: { value } });
    seen.add(value);
    if (!trimmed(e.label)) out.push({ index, field: 'label', reason: 'enumLabelRequired' });
    for (const f of ['label', 'labelEn', 'labelEs', 'labelJa'] as const) {
      if (trimmed(e[f]).length > PARAM_LIMITS.enumLabel) {
        out.push({ index, field: f, reason: 'tooLong', params: { max: PARAM_LIMITS.enumLabel } });
      }
    }
  });
  return out;
}

/**
 * Every problem of a parameter list, row by row. A semaphore id that repeats an earlier row's is
 * a problem of the repeating row.
 */
export function paramProblems(rows: readonly ParamDraft[]): RowProblem<ParamField>[] {
  const out: RowProblem<ParamField>[] = [];
  const seen = new Set<string>();
  rows.forEach((r, index) => {
    const add = (field: ParamField, reason: RefusalReason, params?: RefusalParams) =>
      out.push({ index, field, reason, ...(params ? { params } : {}) });
    const tooLong = (field: ParamField, max: number) => {
      if (trimmed(r[field] as Text).length > max) add(field, 'tooLong', { max });
    };

    const id = trimmed(r.semaphoreId);
    if (!id) add('semaphoreId', 'semaphoreIdRequired');
    else if (id.length > PARAM_LIMITS.semaphoreId) add('semaphoreId', 'tooLong', { max: PARAM_LIMITS.semaphoreId });
    else if (!PATTERNS.code.test(id)) add('semaphoreId', 'codePattern');
    else if (seen.has(id)) add('semaphoreId', 'semaphoreTwice', { id });
    seen.add(id);

    if (!trimmed(r.name)) add('name', 'nameRequired');
    for (const f of ['name', 'nameEn', 'nameEs', 'nameJa'] as const) tooLong(f, PARAM_LIMITS.name);
    tooLong('unit', PARAM_LIMITS.unit);
    tooLong('groupName', PARAM_LIMITS.groupName);

    if (isNumericType(r.dataType) && r.min !== null && r.max !== null && r.min > r.max) add('max', 'minAboveMax');
    if (r.dataType === 'enum') {
      const values = r.enumValues ?? [];
      if (values.length === 0) add('enumValues', 'enumRequired');
      else if (values.length > PARAM_LIMITS.enumCount) add('enumValues', 'enumTooMany', { max: PARAM_LIMITS.enumCount });
      else if (enumValueProblems(values).length > 0) add('enumValues', 'enumInvalid');
    }
  });
  return out;
}

// ---------------------------------------------------------------- alarm rules

/** What the rule checks need to know of a parameter. */
export interface ParamInfo {
  semaphoreId: string;
  dataType: ParamDataType;
  enumValues: readonly { value: string }[];
}

/** An alarm rule as a form holds it (unset fields are null) or the API receives it. */
export interface AlarmRuleDraft {
  semaphoreId?: string | null;
  comparison: AlarmComparison;
  /** A number for numeric parameters, a string ('true'/'false', an enum value, text) otherwise. */
  threshold: number | string | null;
  threshold2: number | null;
  level: number;
  message: string;
  messageEn: string;
  messageEs: string;
  messageJa: string;
  holdSeconds: number | null;
}
export type AlarmRuleField = keyof AlarmRuleDraft;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The problems of a rule's thresholds against its parameter's data type. */
function thresholdProblems(r: AlarmRuleDraft, p: ParamInfo, add: (f: AlarmRuleField, reason: RefusalReason, params?: RefusalParams) => void) {
  const t = r.threshold;
  if (isNumericType(p.dataType)) {
    if (!isNumber(t)) add('threshold', 'ruleNumber');
    else if (p.dataType === 'integer' && !Number.isInteger(t)) add('threshold', 'ruleInteger');
    if (isRangeComparison(r.comparison)) {
      const t2 = r.threshold2;
      if (!isNumber(t2)) add('threshold2', 'ruleRangeSecond');
      else if (isNumber(t) && t2 <= t) add('threshold2', 'ruleRangeOrder');
      else if (p.dataType === 'integer' && !Number.isInteger(t2)) add('threshold2', 'ruleInteger');
    }
    return;
  }
  const v = t === null || t === undefined ? '' : String(t);
  if (p.dataType === 'boolean' && !(BOOLEAN_THRESHOLDS as readonly string[]).includes(v)) add('threshold', 'ruleBoolean');
  else if (p.dataType === 'enum' && !p.enumValues.some((e) => e.value === v)) {
    add('threshold', 'ruleEnum', { values: p.enumValues.map((e) => e.value).join(', ') });
  } else if (p.dataType === 'text' && !v.trim()) add('threshold', 'ruleText');
  else if (v.length > ALARM_LIMITS.threshold) add('threshold', 'tooLong', { max: ALARM_LIMITS.threshold });
}

/** Every problem of a rule list against the type's parameters, row by row. */
export function alarmRuleProblems(
  rules: readonly AlarmRuleDraft[],
  params: readonly ParamInfo[],
): RowProblem<AlarmRuleField>[] {
  const bySem = new Map(params.map((p) => [p.semaphoreId, p]));
  const out: RowProblem<AlarmRuleField>[] = [];
  rules.forEach((r, index) => {
    const add = (field: AlarmRuleField, reason: RefusalReason, params?: RefusalParams) =>
      out.push({ index, field, reason, ...(params ? { params } : {}) });

    const p = r.semaphoreId ? bySem.get(r.semaphoreId) : undefined;
    if (!r.semaphoreId) add('semaphoreId', 'ruleParamRequired');
    else if (!p) add('semaphoreId', 'ruleNoParam', { id: r.semaphoreId });
    if (p && !COMPARISONS_BY_TYPE[p.dataType].includes(r.comparison)) {
      add('comparison', 'ruleComparison', { allowed: COMPARISONS_BY_TYPE[p.dataType].join(', ') });
    } else if (p) thresholdProblems(r, p, add);

    const levels: readonly number[] = ALARM_LIMITS.levels;
    if (!levels.includes(r.level)) add('level', 'ruleLevel');
    if (!trimmed(r.message)) add('message', 'ruleMessageRequired');
    for (const f of ['message', 'messageEn', 'messageEs', 'messageJa'] as const) {
      if (trimmed(r[f]).length > ALARM_LIMITS.message) add(f, 'tooLong', { max: ALARM_LIMITS.message });
    }
    const hold = r.holdSeconds ?? 0;
    if (!Number.isInteger(hold) || hold < 0 || hold > ALARM_LIMITS.holdSeconds) {
      add('holdSeconds', 'ruleHoldRange', { max: ALARM_LIMITS.holdSeconds });
    }
  });
  return out;
}
