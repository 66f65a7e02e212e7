import { beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorCode,
  LANGUAGES,
  deviceFieldsSchema,
  refusalMessage,
  type RefusalParams,
  type RefusalReason,
} from '@iot/contract';
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
  it('localizes the reasons the server writes itself', () => {
    expect(importReason('no device type with code XYZ', t)).toBe('No device type with code XYZ');
    expect(importReason('no project named Harbour', t)).toBe('No project named Harbour');
    expect(importReason('duplicate of row 4', t)).toBe('Same device code as row 4');
    expect(importReason('a device with SN A-1 already exists', t)).toBe('A device with code A-1 already exists');
    expect(importReason('required', t)).toBe('Required');
  });

  it('localizes every message the contract schema gives for bad sheet values', () => {
    const bad = deviceFieldsSchema.safeParse({
      name: '',
      sn: 'bad sn!',
      typeId: 1,
      lng: 200,
      lat: -95,
      alarmPhone: 'call me',
      warningLevel: 7,
      simNumber: '12ab',
      imei: 'x',
      btCode: 'b'.repeat(65),
    });
    expect(bad.success).toBe(false);
    const reasons = bad.error!.issues.map((i) => i.message);
    expect(reasons.length).toBeGreaterThanOrEqual(9);
    for (const reason of reasons) {
      expect(importReason(reason, t), reason).not.toBe(reason);
    }
  });

  it('shows an unknown reason as the server wrote it', () => {
    expect(importReason('something new', t)).toBe('something new');
  });

  it('has its texts in every language', () => {
    for (const lang of LANGUAGES) {
      const fixed = i18n.getFixedT(lang);
      expect(importReason('no project named P', fixed)).toContain('P');
      expect(importReason('no project named P', fixed)).not.toBe('no project named P');
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
    expect(importFileProblem(new ApiError(ErrorCode.VALIDATION, 'disk on fire'), t, 'en')).toBe('disk on fire');
  });
});
