import * as XLSX from '@e965/xlsx';
import { DEVICE_SHEET_COLUMNS } from '@iot/contract';

/** An .xlsx with the English headers of the contract and the given data rows. */
export function sheet(rows: (string | number)[][]): Buffer {
  const header = DEVICE_SHEET_COLUMNS.map((c) => c.en);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([header, ...rows]), 'devices');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** A sheet row from column keys (missing keys stay empty). */
export function row(values: Partial<Record<(typeof DEVICE_SHEET_COLUMNS)[number]['key'], string | number>>) {
  return DEVICE_SHEET_COLUMNS.map((c) => values[c.key] ?? '');
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
