import {
  COMPARISONS_BY_TYPE,
  RANGE_COMPARISONS,
  type AlarmComparison,
  type AlarmRuleDto,
  type AlarmRuleInput,
  type ParamDataType,
} from '@iot/contract';
import { isNumeric, type RowProblem } from './param-rules';

/**
 * The alarm table's rows and the client-side checks that mirror the contract's `alarmRuleSchema`
 * and the server's per-data-type rule check (apps/server/src/modules/devicetype/rules.ts).
 */

export const ALARM_LEVELS = [1, 2, 3, 4] as const;
export const LEVEL_COLORS: Record<number, string> = { 1: 'red', 2: 'orange', 3: 'gold', 4: 'blue' };
export const MAX_HOLD_SECONDS = 86_400;

export { COMPARISONS_BY_TYPE };

export const isRange = (c: AlarmComparison | undefined) => c !== undefined && RANGE_COMPARISONS.includes(c);

/** What the rule checks need to know of a parameter. */
export interface ParamInfo {
  semaphoreId: string;
  dataType: ParamDataType;
  enumValues: { value: string }[];
}

export interface RuleRow {
  semaphoreId: string | undefined;
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
  enabled: boolean;
}

export type RuleField = keyof RuleRow;

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
  return {
    semaphoreId: r.semaphoreId,
    comparison: r.comparison,
    threshold: r.threshold,
    threshold2: r.threshold2,
    level: r.level,
    message: r.message,
    messageEn: r.messageEn,
    messageEs: r.messageEs,
    messageJa: r.messageJa,
    holdSeconds: r.holdSeconds,
    enabled: r.enabled,
  };
}

/** The threshold a parameter starts with when a row switches to it. */
export function defaultThreshold(p: ParamInfo | undefined): number | string | null {
  if (!p || isNumeric(p.dataType)) return null;
  if (p.dataType === 'boolean') return 'true';
  if (p.dataType === 'enum') return p.enumValues[0]?.value ?? null;
  return '';
}

/** The request body: threshold as a number for numeric parameters, a string otherwise. */
export function toRuleInput(row: RuleRow, param: ParamInfo | undefined): AlarmRuleInput {
  const numeric = isNumeric(param?.dataType);
  const threshold = numeric
    ? typeof row.threshold === 'number'
      ? row.threshold
      : Number(row.threshold)
    : String(row.threshold ?? '');
  return {
    semaphoreId: (row.semaphoreId ?? '').trim(),
    comparison: row.comparison,
    threshold,
    threshold2: numeric && isRange(row.comparison) ? row.threshold2 : null,
    level: row.level,
    message: row.message.trim(),
    messageEn: row.messageEn.trim(),
    messageEs: row.messageEs.trim(),
    messageJa: row.messageJa.trim(),
    holdSeconds: row.holdSeconds ?? 0,
    enabled: row.enabled,
  };
}

const TEXT_MAX = { threshold: 64, message: 128 } as const;

/** Every problem of the rule list against the type's parameters, row by row. */
export function ruleProblems(rows: readonly RuleRow[], params: readonly ParamInfo[]): RowProblem<RuleField>[] {
  const bySem = new Map(params.map((p) => [p.semaphoreId, p]));
  const out: RowProblem<RuleField>[] = [];
  rows.forEach((r, index) => {
    const add = (field: RuleField, key: string, values?: RowProblem['values']) =>
      out.push({ index, field, key, values });
    const p = r.semaphoreId ? bySem.get(r.semaphoreId) : undefined;
    if (!r.semaphoreId) add('semaphoreId', 'alarms.errors.paramRequired');
    else if (!p) add('semaphoreId', 'alarms.errors.paramUnknown', { id: r.semaphoreId });

    if (p && !COMPARISONS_BY_TYPE[p.dataType].includes(r.comparison)) {
      add('comparison', 'alarms.errors.comparisonNotAllowed');
    } else if (p) {
      const t = r.threshold;
      if (isNumeric(p.dataType)) {
        if (typeof t !== 'number' || !Number.isFinite(t)) add('threshold', 'alarms.errors.numberRequired');
        else if (p.dataType === 'integer' && !Number.isInteger(t)) add('threshold', 'alarms.errors.integerRequired');
        if (isRange(r.comparison)) {
          const t2 = r.threshold2;
          if (typeof t2 !== 'number' || !Number.isFinite(t2)) add('threshold2', 'alarms.errors.secondRequired');
          else if (typeof t === 'number' && t2 <= t) add('threshold2', 'alarms.errors.rangeOrder');
          else if (p.dataType === 'integer' && !Number.isInteger(t2)) add('threshold2', 'alarms.errors.integerRequired');
        }
      } else {
        const v = t === null || t === undefined ? '' : String(t);
        if (p.dataType === 'boolean' && !['true', 'false', '0', '1'].includes(v)) {
          add('threshold', 'alarms.errors.booleanRequired');
        } else if (p.dataType === 'enum' && !p.enumValues.some((e) => e.value === v)) {
          add('threshold', 'alarms.errors.enumRequired');
        } else if (p.dataType === 'text' && !v.trim()) {
          add('threshold', 'alarms.errors.textRequired');
        } else if (v.length > TEXT_MAX.threshold) {
          add('threshold', 'alarms.errors.tooLong', { max: TEXT_MAX.threshold });
        }
      }
    }

    if (!Number.isInteger(r.level) || r.level < 1 || r.level > 4) add('level', 'alarms.errors.levelRequired');
    if (!(r.message ?? '').trim()) add('message', 'alarms.errors.messageRequired');
    for (const f of ['message', 'messageEn', 'messageEs', 'messageJa'] as const) {
      if ((r[f] ?? '').trim().length > TEXT_MAX.message) add(f, 'alarms.errors.tooLong', { max: TEXT_MAX.message });
    }
    const hold = r.holdSeconds ?? 0;
    if (!Number.isInteger(hold) || hold < 0 || hold > MAX_HOLD_SECONDS) {
      add('holdSeconds', 'alarms.errors.holdRange', { max: MAX_HOLD_SECONDS });
    }
  });
  return out;
}

/**
 * What changes in a row when it switches to parameter `p`: a comparison the data type allows and
 * a threshold of the right kind (kept when it still fits), no second threshold for non-numbers.
 */
export function fitToParam(row: RuleRow, p: ParamInfo | undefined): Partial<RuleRow> {
  const patch: Partial<RuleRow> = {};
  if (p && !COMPARISONS_BY_TYPE[p.dataType].includes(row.comparison)) {
    patch.comparison = isNumeric(p.dataType) ? 'gt' : 'eq';
  }
  const t = row.threshold;
  const fits =
    p === undefined
      ? false
      : isNumeric(p.dataType)
        ? typeof t === 'number'
        : p.dataType === 'enum'
          ? p.enumValues.some((e) => e.value === t)
          : p.dataType === 'boolean'
            ? t === 'true' || t === 'false'
            : typeof t === 'string';
  if (!fits) patch.threshold = defaultThreshold(p);
  if (!isNumeric(p?.dataType)) patch.threshold2 = null;
  return patch;
}

/** Booleans may be stored as 0/1: the picker offers true/false. */
export function normalizeThreshold(row: RuleRow, p: ParamInfo | undefined): RuleRow {
  if (p?.dataType !== 'boolean') return row;
  return { ...row, threshold: row.threshold === '1' ? 'true' : row.threshold === '0' ? 'false' : row.threshold };
}
