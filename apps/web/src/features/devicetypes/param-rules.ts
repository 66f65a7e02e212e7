import type { ParamDataType, ParamDto, ParamInput } from '@iot/contract';

/**
 * The parameter table's rows and the client-side checks that mirror the contract's `paramSchema`
 * (and the server's "semaphore ids unique" rule), so most mistakes show before a round trip.
 */

export interface EnumOptionRow {
  value: string;
  label: string;
  labelEn: string;
  labelEs: string;
  labelJa: string;
}

export interface ParamRow {
  semaphoreId: string;
  name: string;
  nameEn: string;
  nameEs: string;
  nameJa: string;
  unit: string;
  groupName: string;
  dataType: ParamDataType;
  precision: number | null;
  min: number | null;
  max: number | null;
  enumValues: EnumOptionRow[];
  writable: boolean;
}

export type ParamField = keyof ParamRow;

/** A problem in one row: the field it belongs to and a `devicetypes:` message key. */
export interface RowProblem<F extends string = ParamField> {
  index: number;
  field: F;
  key: string;
  values?: Record<string, string | number>;
}

export const ID_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const LIMITS = {
  semaphoreId: 32,
  name: 64,
  unit: 16,
  groupName: 32,
  enumValue: 32,
  enumLabel: 64,
  enumCount: 64,
  precision: 6,
  rows: 500,
} as const;

export const isNumeric = (t: ParamDataType | undefined) => t === 'number' || t === 'integer';

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
  return {
    semaphoreId: p.semaphoreId,
    name: p.name,
    nameEn: p.nameEn,
    nameEs: p.nameEs,
    nameJa: p.nameJa,
    unit: p.unit,
    groupName: p.groupName,
    dataType: p.dataType,
    precision: p.precision,
    min: p.min,
    max: p.max,
    enumValues: p.enumValues.map((e) => ({ ...e })),
    writable: p.writable,
  };
}

/** The request body: trimmed texts, fields that do not apply to the data type cleared, order = sort. */
export function toParamInput(row: ParamRow, index: number): ParamInput {
  const numeric = isNumeric(row.dataType);
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

/** Problems of the enum values of one parameter (also used by the enum editor). */
export function enumProblems(values: readonly EnumOptionRow[]): { index: number; field: keyof EnumOptionRow; key: string }[] {
  const out: { index: number; field: keyof EnumOptionRow; key: string }[] = [];
  const seen = new Set<string>();
  values.forEach((e, index) => {
    const value = e.value.trim();
    if (!value) out.push({ index, field: 'value', key: 'params.enum.valueRequired' });
    else if (value.length > LIMITS.enumValue) out.push({ index, field: 'value', key: 'params.enum.valueTooLong' });
    else if (seen.has(value)) out.push({ index, field: 'value', key: 'params.enum.valueDuplicate' });
    seen.add(value);
    if (!e.label.trim()) out.push({ index, field: 'label', key: 'params.enum.labelRequired' });
    for (const f of ['label', 'labelEn', 'labelEs', 'labelJa'] as const) {
      if (e[f].trim().length > LIMITS.enumLabel) out.push({ index, field: f, key: 'params.enum.labelTooLong' });
    }
  });
  return out;
}

/** Every problem of the parameter list, row by row. */
export function paramProblems(rows: readonly ParamRow[]): RowProblem[] {
  const out: RowProblem[] = [];
  const counts = new Map<string, number>();
  for (const r of rows) {
    const id = (r.semaphoreId ?? '').trim();
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  rows.forEach((r, index) => {
    const add = (field: ParamField, key: string, values?: RowProblem['values']) =>
      out.push({ index, field, key, values });
    const id = (r.semaphoreId ?? '').trim();
    if (!id) add('semaphoreId', 'params.errors.semaphoreIdRequired');
    else if (id.length > LIMITS.semaphoreId) add('semaphoreId', 'params.errors.tooLong', { max: LIMITS.semaphoreId });
    else if (!ID_PATTERN.test(id)) add('semaphoreId', 'params.errors.semaphoreIdPattern');
    else if ((counts.get(id) ?? 0) > 1) add('semaphoreId', 'params.errors.semaphoreIdDuplicate');

    if (!(r.name ?? '').trim()) add('name', 'params.errors.nameRequired');
    for (const f of ['name', 'nameEn', 'nameEs', 'nameJa'] as const) {
      if ((r[f] ?? '').trim().length > LIMITS.name) add(f, 'params.errors.tooLong', { max: LIMITS.name });
    }
    if ((r.unit ?? '').trim().length > LIMITS.unit) add('unit', 'params.errors.tooLong', { max: LIMITS.unit });
    if ((r.groupName ?? '').trim().length > LIMITS.groupName) {
      add('groupName', 'params.errors.tooLong', { max: LIMITS.groupName });
    }

    if (isNumeric(r.dataType) && r.min !== null && r.max !== null && r.min > r.max) {
      add('max', 'params.errors.minAboveMax');
    }
    if (r.dataType === 'enum') {
      const values = r.enumValues ?? [];
      if (values.length === 0) add('enumValues', 'params.errors.enumRequired');
      else if (values.length > LIMITS.enumCount) add('enumValues', 'params.errors.enumTooMany', { max: LIMITS.enumCount });
      else if (enumProblems(values).length > 0) add('enumValues', 'params.errors.enumInvalid');
    }
  });
  return out;
}

/** Semaphore ids in `before` that `after` no longer has. */
export function removedIds(before: readonly string[], after: readonly ParamRow[]): string[] {
  const kept = new Set(after.map((r) => r.semaphoreId.trim()));
  return [...new Set(before.filter((id) => !kept.has(id)))];
}
