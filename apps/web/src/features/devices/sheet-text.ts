import type { TFunction } from 'i18next';
import { DEVICE_SHEET_COLUMNS, type Language } from '@iot/contract';
import { describeError, refusalOf, type ApiError } from '../../lib/http';

/** A spreadsheet column's header in a language (the same text the template carries). */
export function columnLabel(key: string, lang: Language): string {
  const column = DEVICE_SHEET_COLUMNS.find((c) => c.key === key);
  return column ? column[lang] : key;
}

/** Whether a file name is one the import accepts (§5: only .xlsx or .xls). */
export function isSpreadsheet(name: string): boolean {
  return /\.(xlsx|xls)$/i.test(name);
}

/**
 * The server's import reasons are English sentences (there are no reason codes). The known ones
 * are shown in the UI language; anything else is shown as the server wrote it.
 */
const REASONS: { pattern: RegExp; key: string; param?: string }[] = [
  { pattern: /^required$/, key: 'required' },
  { pattern: /^no device type with code (.+)$/, key: 'unknownType', param: 'value' },
  { pattern: /^no project named (.+)$/, key: 'unknownProject', param: 'value' },
  { pattern: /^several projects are named (.+)$/, key: 'ambiguousProject', param: 'value' },
  { pattern: /^a number is required$/, key: 'number' },
  { pattern: /^duplicate of row (\d+)$/, key: 'duplicateRow', param: 'value' },
  { pattern: /^a device with SN (.+) already exists$/, key: 'snTaken', param: 'value' },
  { pattern: /^please enter the device name$/, key: 'nameRequired' },
  { pattern: /^please enter the device code$/, key: 'snRequired' },
  { pattern: /^letters, digits and _ \. : - only$/, key: 'snChars' },
  { pattern: /^digits only$/, key: 'digits' },
  { pattern: /^digits, spaces and \+ - \( \) , only$/, key: 'phoneChars' },
  { pattern: /^longitude is -180…180$/, key: 'lng' },
  { pattern: /^latitude is -90…90$/, key: 'lat' },
  { pattern: /^Too big: expected string to have <=(\d+) characters$/, key: 'tooLong', param: 'value' },
  { pattern: /^Too (big|small): expected number to be [<>]=?-?\d+$/, key: 'outOfRange' },
  { pattern: /^Invalid input: expected int, received number$/, key: 'integer' },
];

export function importReason(reason: string, t: TFunction): string {
  for (const { pattern, key, param } of REASONS) {
    const match = pattern.exec(reason);
    if (match) return t(`devices:import.reasons.${key}`, param ? { [param]: match[1] } : {});
  }
  return reason;
}

/**
 * File-level refusals of POST /device/import (40000 with field `file`), in the UI language; the
 * missing columns are named by their headers in that language.
 */
export function importFileProblem(err: ApiError, t: TFunction, lang: Language): string {
  const refusal = refusalOf(err.data);
  if (refusal?.reason === 'importMissingColumns') {
    const keys = String(refusal.params.columns ?? '').split(/,\s*/).filter(Boolean);
    const columns = keys.map((k) => columnLabel(k, lang)).join(lang === 'zh' || lang === 'ja' ? '、' : ', ');
    return t('refusals:importMissingColumns', { columns });
  }
  return describeError(err);
}
