import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, LANGUAGES, refusalMessage } from '@iot/contract/plain';
import type { RefusalParams, RefusalReason } from '@iot/contract';
import { ApiError } from '../../lib/http';
import i18n from '../../lib/i18n';
import { columnLabel, importFileProblem, importReason, isSpreadsheet } from './sheet-text';

const t = i18n.t.bind(i18n);

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('isSpreadsheet', () => {
  it('accepts .xlsx and .xls in any case, nothing else', () => {
    expect(isSpreadsheet('devices.xlsx')).toBe(true);
    expect(isSpreadsheet('DEVICES.XLS')).toBe(true);
    expect(isSpreadsheet('devices.csv')).toBe(false);
    expect(isSpreadsheet('devices.xlsx.txt')).toBe(false);
    expect(isSpreadsheet('xlsx')).toBe(false);
  });
});

describe('columnLabel', () => {
  it('names a column like the template of that language', () => {
    expect(columnLabel('lng', 'en')).toBe('Longitude');
    expect(columnLabel('lng', 'zh')).toBe('经度');
    expect(columnLabel('sn', 'ja')).toBe('デバイスコード (SN)');
    expect(columnLabel('unknown', 'en')).toBe('unknown');
  });
});

describe('importReason', () => {
  /** A row error as the server sends it: a refusal reason with params and its English text. */
  const rowError = (reason: RefusalReason, params: RefusalParams = {}) => ({ reason, params, message: refusalMessage(reason, params) });

  it('translates the reason with its params like every other refusal', () => {
    expect(importReason(rowError('unknownTypeCode', { code: 'XYZ' }))).toBe('No device type with code XYZ');
    expect(importReason(rowError('unknownProjectName', { name: 'Harbour' }))).toBe('No project named Harbour');
    expect(importReason(rowError('duplicateSnRow', { row: 4 }))).toBe('Same device code as row 4');
    expect(importReason(rowError('numberRange', { min: -180, max: 180 }))).toBe('Must be between -180 and 180');
    expect(importReason(rowError('cellRequired'))).toBe('Required');
  });

  it('shows the server’s English text for a reason this console does not know', () => {
    expect(importReason({ reason: 'somethingNew' as RefusalReason, params: {}, message: 'Something new' })).toBe('Something new');
  });

  it('has the texts of every row reason in every language, params filled in', async () => {
    const reasons: [RefusalReason, RefusalParams][] = [
      ['cellRequired', {}],
      ['unknownTypeCode', { code: 'XYZ' }],
      ['unknownProjectName', { name: 'Harbour' }],
      ['ambiguousProjectName', { name: 'Harbour' }],
      ['duplicateSnRow', { row: 7 }],
      ['snTaken', { sn: 'A-1' }],
      ['numberRequired', {}],
      ['integerRequired', {}],
      ['numberRange', { min: -90, max: 90 }],
      ['tooLong', { max: 64 }],
      ['snPattern', {}],
      ['digitsOnly', {}],
      ['phoneListPattern', {}],
      ['nulCharacter', {}],
      ['invalidValue', {}],
    ];
    try {
      for (const lang of LANGUAGES) {
        await i18n.changeLanguage(lang);
        for (const [reason, params] of reasons) {
          const text = importReason(rowError(reason, params));
          expect(text, `${lang} ${reason}`).not.toBe(`refusals:${reason}`);
          if (lang !== 'en') expect(text, `${lang} ${reason}`).not.toBe(refusalMessage(reason, params));
          for (const value of Object.values(params)) expect(text, `${lang} ${reason}`).toContain(String(value));
        }
      }
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('importFileProblem', () => {
  /** A file-level refusal as the server sends it (contract refusals.ts). */
  const refused = (reason: RefusalReason, params?: RefusalParams) =>
    new ApiError(ErrorCode.VALIDATION, `file: ${refusalMessage(reason, params)}`, { field: 'file', reason, params });

  it('gives the §5 message for a file that is not a spreadsheet', () => {
    expect(importFileProblem(refused('importFormat'), t, 'en')).toBe(
      'Only .xlsx or .xls files can be uploaded: delete this file and upload again',
    );
  });

  it('names missing columns by their headers in the UI language', async () => {
    const err = refused('importMissingColumns', { columns: 'name, sn' });
    expect(importFileProblem(err, t, 'en')).toBe(
      'The sheet lacks required columns: Device name, Device code (SN). Please download a template.',
    );
    await i18n.changeLanguage('zh');
    try {
      expect(importFileProblem(err, i18n.t.bind(i18n), 'zh')).toBe('表格缺少必填列：设备名称、设备编码。请下载模板。');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('translates the other reasons with their params; a message without a reason passes through', () => {
    expect(importFileProblem(refused('importNoRows'), t, 'en')).toBe('The sheet has no data rows.');
    expect(importFileProblem(refused('importTooManyRows', { max: 20000 }), t, 'en')).toBe('At most 20000 rows per file.');
    expect(importFileProblem(refused('importUnpackedTooLarge', { max: 29 }), t, 'en')).toBe(
      'This workbook unpacks to more than 29 MB. Split it into smaller files.',
    );
    expect(importFileProblem(refused('importTooManyCells', { max: 1000100 }), t, 'en')).toContain('1000100 cells');
    expect(importFileProblem(new ApiError(ErrorCode.VALIDATION, 'disk on fire'), t, 'en')).toBe('disk on fire');
  });
});
