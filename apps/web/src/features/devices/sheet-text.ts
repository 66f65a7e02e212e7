import type { TFunction } from 'i18next';
import { DEVICE_SHEET_COLUMNS } from '@iot/contract/plain';
import type { ImportError, Language } from '@iot/contract';
import { describeError, refusalOf, refusalText, type ApiError } from '../../lib/http';

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
 * A row error of the import report in the UI language: its refusal reason (contract refusals.ts)
 * with its params, translated like every other refusal; the server's English text for a reason
 * this console does not know yet.
 */
export function importReason(error: Pick<ImportError, 'reason' | 'params' | 'message'>): string {
  return refusalText(error) ?? error.message;
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
