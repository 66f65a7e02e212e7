import { isNumericType, paramProblems } from '@iot/contract/plain';
import type { EnumOptionDraft, ParamDraft, ParamDto, ParamField, ParamInput, RowProblem } from '@iot/contract';

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

/** A row of the editor: a stable key (expansion, problems, React) and its values. */
export interface ParamItem {
  key: number;
  row: ParamRow;
}

/** A cell of a row: a field the contract checks, or the decimals and the writable switch. */
export type CellField = ParamField | 'precision' | 'writable';

/** A problem shown on a cell: an i18n key (`refusals:<reason>`, a server refusal) and its values. */
export interface CellProblem {
  key: string;
  params?: Record<string, unknown>;
}

export type RowProblems = Partial<Record<CellField, CellProblem>>;

/** The problems the table shows, by row key. */
export type ShownProblems = ReadonlyMap<number, RowProblems>;

const cellProblem = (p: RowProblem<ParamField>): CellProblem => ({
  key: `refusals:${p.reason}`,
  ...(p.params ? { params: p.params as Record<string, unknown> } : {}),
});

const sameProblem = (a: CellProblem | undefined, b: CellProblem | undefined) =>
  a === b || (!!a && !!b && a.key === b.key && JSON.stringify(a.params) === JSON.stringify(b.params));

/**
 * The problems shown after a change: `cells` and the cells that already show a problem are
 * checked again, with the contract's checks of the whole list (uniqueness and min ≤ max depend
 * on other cells). Rows whose problems stay the same keep their object, and an unchanged result
 * is `shown` itself, so only the cells that change are drawn again.
 */
export function recheck(
  items: readonly ParamItem[],
  shown: ShownProblems,
  cells: readonly { index: number; field: CellField }[],
): ShownProblems {
  const indexOf = new Map(items.map((it, i) => [it.key, i]));
  const next = new Map<number, RowProblems>();
  const targets = [...cells];
  for (const [key, problems] of shown) {
    const index = indexOf.get(key);
    if (index === undefined) continue;
    next.set(key, problems);
    for (const field of Object.keys(problems)) targets.push({ index, field: field as CellField });
  }
  let changed = next.size !== shown.size;
  if (targets.length === 0) return changed ? next : shown;
  const found = new Map<string, CellProblem>();
  for (const p of paramProblems(items.map((it) => it.row))) {
    if (!found.has(`${p.index}:${p.field}`)) found.set(`${p.index}:${p.field}`, cellProblem(p));
  }
  for (const { index, field } of targets) {
    const key = items[index]?.key;
    if (key === undefined) continue;
    const before = next.get(key);
    const now = found.get(`${index}:${field}`);
    if (sameProblem(before?.[field], now)) continue;
    const row: RowProblems = { ...before };
    if (now) row[field] = now;
    else delete row[field];
    if (Object.keys(row).length > 0) next.set(key, row);
    else next.delete(key);
    changed = true;
  }
  return changed ? next : shown;
}

/** Every problem of the list, as the table shows them after a save was refused by the checks. */
export function shownProblems(items: readonly ParamItem[], problems: readonly RowProblem<ParamField>[]): ShownProblems {
  const next = new Map<number, RowProblems>();
  for (const p of problems) {
    const key = items[p.index]?.key;
    if (key === undefined) continue;
    const row = next.get(key) ?? {};
    row[p.field] ??= cellProblem(p);
    next.set(key, row);
  }
  return next;
}
