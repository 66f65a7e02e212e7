import type { Currency } from '@iot/contract';

/** Digits of the currency's minor unit (CNY, USD, EUR: 2; JPY: 0): amounts are kept in minor units. */
export function minorDigits(currency: Currency): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in minor units, written in the language's way (¥1,234.50; 1.234,50 €). */
export function formatMoney(minor: number, currency: Currency, lang: string): string {
  const digits = minorDigits(currency);
  return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(minor / 10 ** digits);
}

/** What a form's major-unit amount is in minor units (rounded to the unit: no float cents). */
export function toMinor(major: number, currency: Currency): number {
  return Math.round(major * 10 ** minorDigits(currency));
}
