import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { safeSheetName, writeSheet } from './sheet.js';

/** The name of the one sheet of a workbook writeSheet wrote, as a spreadsheet program reads it. */
const nameOf = (buf: Buffer) => XLSX.read(buf, { type: 'buffer' }).SheetNames[0];

describe('writeSheet: any sheet name gives a workbook', () => {
  it('writes names Excel refuses as close names it accepts, and keeps the rows', async () => {
    const cases: [string, string][] = [
      ['history', 'history_'],
      ['History', 'History_'],
      ['a/b\\\\c?d*e[f]g:h', 'a_b__c_d_e_f_g_h'],
      ["'quoted'", 'quoted'],
      ["''", 'Sheet1'],
      ['', 'Sheet1'],
      ['x'.repeat(40), 'x'.repeat(31)],
      // A cut through a surrogate pair drops the whole character.
      [`${'y'.repeat(30)}😀`, 'y'.repeat(30)],
    ];
    for (const [given, written] of cases) {
      const buf = await writeSheet(given, [['time', 'v'], ['2026-01-01T00:00:00.000Z', 1]]);
      expect(nameOf(buf), given).toBe(written);
      const wb = XLSX.read(buf, { type: 'buffer' });
      expect(XLSX.utils.sheet_to_json(wb.Sheets[written]!, { header: 1 })).toEqual([['time', 'v'], ['2026-01-01T00:00:00.000Z', 1]]);
    }
  });

  it('leaves an allowed name as it is', () => {
    for (const name of ['devices', 'sim-cards', 'alarms', 'Histories', '设备']) expect(safeSheetName(name)).toBe(name);
  });
});
