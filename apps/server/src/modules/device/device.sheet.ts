import {
  DEVICE_EXPORT_COLUMNS,
  DEVICE_RANGES,
  DEVICE_SHEET_COLUMNS,
  deviceFieldsSchema,
  type DeviceExportKey,
  type DeviceSheetKey,
  type ImportError,
  type Language,
} from '@iot/contract';
import type { z } from 'zod';
import { restoreCell } from '../../lib/sheet.js';
import { cellError, issueRefusal as issueRefusalIn } from '../../lib/sheet-refusals.js';

export { cellError };

type Fields = z.output<typeof deviceFieldsSchema>;

/**
 * Maps header cells (in any language, or the column key) to column keys; a header that names no
 * import column (such as the warning level of older sheets and of the export) maps to nothing and
 * its cells are ignored.
 */
export function mapHeader(header: unknown[]): { keys: (DeviceSheetKey | undefined)[]; missing: DeviceSheetKey[] } {
  const norm = (v: unknown) => String(v ?? '').trim().toLowerCase();
  const lookup = new Map<string, DeviceSheetKey>();
  for (const c of DEVICE_SHEET_COLUMNS) {
    for (const label of [c.key, c.zh, c.en, c.es, c.ja]) lookup.set(norm(label), c.key);
  }
  const keys = header.map((h) => lookup.get(norm(h)));
  const missing = DEVICE_SHEET_COLUMNS.filter((c) => c.required && !keys.includes(c.key)).map((c) => c.key);
  return { keys, missing };
}

/** The template's header row. */
export function headerRow(lang: Language): string[] {
  return DEVICE_SHEET_COLUMNS.map((c) => c[lang]);
}

/** The export's header row: the template's, then the read-only warning level. */
export function exportHeaderRow(lang: Language): string[] {
  return DEVICE_EXPORT_COLUMNS.map((c) => c[lang]);
}

export interface SheetContext {
  /** Visible type code → id. */
  types: Map<string, number>;
  /** Manageable project name → ids (more than one: ambiguous). */
  projects: Map<string, number[]>;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(restoreCell(v)).trim());
const num = (v: unknown) => {
  const s = text(v);
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : Number.NaN;
};

const YIELD_EVERY = 250;

/** A zod issue of deviceFieldsSchema as a refusal reason (lib/sheet-refusals.ts), with the device's ranges. */
export const issueRefusal = (issue: z.core.$ZodIssue) => issueRefusalIn(issue, DEVICE_RANGES);

/**
 * Validates data rows into device fields. Every problem is reported with its spreadsheet row and
 * column; a row with any problem is left out. Duplicate SNs inside the file are errors too.
 */
export async function parseRows(
  rows: unknown[][],
  keys: (DeviceSheetKey | undefined)[],
  ctx: SheetContext,
): Promise<{ valid: { row: number; fields: Fields }[]; errors: ImportError[] }> {
  const valid: { row: number; fields: Fields }[] = [];
  const errors: ImportError[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    // 20,000 rows take ~200 ms: give the event loop back every few hundred rows.
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((r) => setImmediate(r));
    const cells = rows[i]!;
    const row = i + 2; // the header is row 1
    const get = (k: DeviceSheetKey) => {
      const idx = keys.indexOf(k);
      return idx < 0 ? '' : cells[idx];
    };
    const rowErrors: ImportError[] = [];
    const typeCode = text(get('type'));
    const typeId = ctx.types.get(typeCode);
    if (!typeCode) rowErrors.push(cellError(row, 'type', 'cellRequired'));
    else if (!typeId) rowErrors.push(cellError(row, 'type', 'unknownTypeCode', { code: typeCode }));
    const projectName = text(get('project'));
    let projectId: number | null = null;
    if (projectName) {
      const found = ctx.projects.get(projectName) ?? [];
      if (found.length === 0) rowErrors.push(cellError(row, 'project', 'unknownProjectName', { name: projectName }));
      else if (found.length > 1) rowErrors.push(cellError(row, 'project', 'ambiguousProjectName', { name: projectName }));
      else projectId = found[0]!;
    }
    const candidate = {
      name: text(get('name')),
      sn: text(get('sn')),
      typeId: typeId ?? 1,
      projectId,
      address: text(get('address')),
      lng: num(get('lng')),
      lat: num(get('lat')),
      alarmPhone: text(get('alarmPhone')),
      btCode: text(get('btCode')),
      version4g: text(get('version4g')),
      hardwareVersion: text(get('hardwareVersion')),
      simNumber: text(get('simNumber')),
      imei: text(get('imei')),
      manufacturerModel: text(get('manufacturerModel')),
      remarks: text(get('remarks')),
      description: text(get('description')),
    };
    for (const [column, value] of Object.entries(candidate)) {
      // PostgreSQL text cannot hold NUL: report the cell instead of failing the insert.
      if (typeof value === 'string' && value.includes('\u0000')) rowErrors.push(cellError(row, column, 'nulCharacter'));
    }
    const parsed = deviceFieldsSchema.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const { reason, params } = issueRefusal(issue);
        rowErrors.push(cellError(row, String(issue.path[0] ?? ''), reason, params));
      }
    }
    if (candidate.sn) {
      const first = seen.get(candidate.sn);
      if (first) rowErrors.push(cellError(row, 'sn', 'duplicateSnRow', { row: first }));
      else seen.set(candidate.sn, row);
    }
    if (rowErrors.length > 0 || !parsed.success) errors.push(...rowErrors);
    else valid.push({ row, fields: parsed.data });
  }
  return { valid, errors };
}

/** A spreadsheet row for export, in column order. */
export function exportRow(d: {
  name: string; sn: string; typeCode: string; projectName: string | null; address: string; lng: number | null; lat: number | null;
  alarmPhone: string; warningLevel: number; btCode: string; version4g: string; hardwareVersion: string; simNumber: string;
  imei: string; manufacturerModel: string; remarks: string; description: string;
}): unknown[] {
  const byKey: Record<DeviceExportKey, unknown> = {
    ...d,
    type: d.typeCode,
    project: d.projectName ?? '',
    lng: d.lng ?? '',
    lat: d.lat ?? '',
  };
  return DEVICE_EXPORT_COLUMNS.map((c) => byKey[c.key]);
}
