import {
  DEVICE_EXPORT_COLUMNS,
  DEVICE_RANGES,
  deviceFieldsSchema,
  type DeviceExportKey,
  type DeviceSheetKey,
  type ImportError,
  type Language,
} from '@iot/contract';
import type { z } from 'zod';
import { cellText as text, type SheetRowResult } from '../../lib/sheet-import.js';
import { cellError, issueRefusal as issueRefusalIn } from '../../lib/sheet-refusals.js';

export { cellError };

type Fields = z.output<typeof deviceFieldsSchema>;

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

const num = (v: unknown) => {
  const s = text(v);
  if (s === '') return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : Number.NaN;
};

/** A zod issue of deviceFieldsSchema as a refusal reason (lib/sheet-refusals.ts), with the device's ranges. */
export const issueRefusal = (issue: z.core.$ZodIssue) => issueRefusalIn(issue, DEVICE_RANGES);

/**
 * One data row as device fields, or its problems, each with its spreadsheet row and column
 * (duplicate SNs inside the file are found by the import's base, lib/sheet-import.ts).
 */
export function parseDeviceRow(get: (k: DeviceSheetKey) => unknown, row: number, ctx: SheetContext): SheetRowResult<Fields> {
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
  return parsed.success ? { errors: rowErrors, value: parsed.data } : { errors: rowErrors };
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
