import type { TFunction } from 'i18next';
import { STALE_AFTER_SECONDS } from '@iot/contract/plain';
import type { DetailParam, Language } from '@iot/contract';
import { formatNumber } from '../../../lib/format';
import { enumLabel, localName } from '../../../lib/localize';

export const paramLabel = (p: DetailParam, lang: Language) => localName(p, lang) || p.semaphoreId;

/** A value as the operator reads it: enum labels and booleans in the UI language, numbers at the type's precision. */
export function formatValue(p: DetailParam, value: string | number | boolean | null | undefined, lang: Language, t: TFunction): string {
  if (value === null || value === undefined) return t('common:empty');
  if (p.dataType === 'enum') {
    const option = p.enumValues.find((o) => o.value === String(value));
    return option ? enumLabel(option, lang) : String(value);
  }
  if (p.dataType === 'boolean') return t(value === true || value === 1 || value === 'true' ? 'devicedetail:on' : 'devicedetail:off');
  if (typeof value === 'number' && p.dataType === 'number') return formatNumber(value, Math.min(p.precision, 6), lang);
  return String(value);
}

/** The value's text and its unit, apart by a non-breaking space (lib/format formatQuantity). */
export const withUnit = (text: string, p: DetailParam) => (p.unit && text !== '—' ? `${text}\u00A0${p.unit}` : text);

/** Whether a value's time is older than the staleness limit. */
export function isStale(ts: string | null | undefined, now = Date.now()): boolean {
  if (!ts) return false;
  return now - Date.parse(ts) > STALE_AFTER_SECONDS * 1000;
}

/** Parameters a chart can draw: numbers, and booleans and enums as their numeric values. */
export const chartable = (p: DetailParam) => p.dataType !== 'text';
