import { isNumericType } from '@iot/contract/plain';
import type { EnumOptionDraft, ParamDraft, ParamDto, ParamInput } from '@iot/contract';

/**
 * The parameter table's rows: what a form row holds and the request body it becomes. The checks
 * of the rows are the contract's (`paramProblems`, `enumValueProblems`), the same the API runs.
 */

export type EnumOptionRow = EnumOptionDraft;

/** A row of the parameter table: the contract's parameter draft and what only a form needs. */
export interface ParamRow extends ParamDraft {
  precision: number | null;
  enumValues: EnumOptionRow[];
  writable: boolean;
}

export function newParamRow(): ParamRow {
  return {
    semaphoreId: '',
    name: '',
    nameEn: '',
    nameEs: '',
    nameJa: '',
    unit: '',
    groupName: '',
    dataType: 'number',
    precision: 0,
    min: null,
    max: null,
    enumValues: [],
    writable: false,
  };
}

export function toParamRow(p: ParamDto): ParamRow {
  const { id: _id, sort: _sort, ...row } = p;
  return { ...row, enumValues: p.enumValues.map((e) => ({ ...e })) };
}

/** The request body: trimmed texts, fields that do not apply to the data type cleared, order = sort. */
export function toParamInput(row: ParamRow, index: number): ParamInput {
  const numeric = isNumericType(row.dataType);
  return {
    semaphoreId: row.semaphoreId.trim(),
    name: row.name.trim(),
    nameEn: row.nameEn.trim(),
    nameEs: row.nameEs.trim(),
    nameJa: row.nameJa.trim(),
    unit: row.unit.trim(),
    groupName: row.groupName.trim(),
    dataType: row.dataType,
    precision: row.dataType === 'number' ? (row.precision ?? 0) : 0,
    min: numeric ? row.min : null,
    max: numeric ? row.max : null,
    enumValues:
      row.dataType === 'enum'
        ? row.enumValues.map((e) => ({
            value: e.value.trim(),
            label: e.label.trim(),
            labelEn: e.labelEn.trim(),
            labelEs: e.labelEs.trim(),
            labelJa: e.labelJa.trim(),
          }))
        : [],
    writable: row.writable,
    sort: index + 1,
  };
}

/** Semaphore ids in `before` that `after` no longer has. */
export function removedIds(before: readonly string[], after: readonly ParamRow[]): string[] {
  const kept = new Set(after.map((r) => r.semaphoreId.trim()));
  return [...new Set(before.filter((id) => !kept.has(id)))];
}
