import type { TFunction } from 'i18next';
import i18n from './i18n';

export type TimeInput = Date | number | string | null | undefined;

/** A 10-digit number is a Unix timestamp in seconds (§9); 13 digits are milliseconds. */
function toMillis(value: number): number {
  return String(Math.trunc(Math.abs(value))).length === 10 ? value * 1000 : value;
}

/** yyyyMMdd or yyyyMMddHHmmss, as carriers write dates. */
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2}))?$/;

/** Turns any accepted input into a Date, or undefined when it is empty or not a date. */
export function toDate(time: TimeInput): Date | undefined {
  if (time === null || time === undefined || time === '') return undefined;
  let date: Date;
  if (time instanceof Date) date = time;
  else if (typeof time === 'number') date = new Date(toMillis(time));
  else if (COMPACT.test(time.trim())) {
    // Carriers' compact local times (OneLink: "20240722000000", "20240722"): 14 or 8 digits would
    // otherwise read as milliseconds of 1970.
    const [, y, m, d, h = '0', i = '0', s = '0'] = COMPACT.exec(time.trim())!;
    date = new Date(Number(y), Number(m) - 1, Number(d), Number(h), Number(i), Number(s));
  } else if (/^\d+$/.test(time.trim())) date = new Date(toMillis(Number(time.trim())));
  else if (/^\d{4}-\d{1,2}-\d{1,2}( \d{1,2}:\d{1,2}(:\d{1,2})?)?$/.test(time.trim())) {
    // "2024-1-2 03:04" without a zone is local time; slashes make every engine read it so.
    date = new Date(time.trim().replace(/-/g, '/'));
  } else date = new Date(time);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a time with `{y} {m} {d} {h} {i} {s}` (zero padded) and `{a}` (weekday name in the UI
 * language). Returns null when the input is empty or not a date.
 */
export function parseTime(time: TimeInput, pattern = '{y}-{m}-{d} {h}:{i}:{s}'): string | null {
  const date = toDate(time);
  if (!date) return null;
  const parts: Record<string, string> = {
    y: String(date.getFullYear()),
    m: pad(date.getMonth() + 1),
    d: pad(date.getDate()),
    h: pad(date.getHours()),
    i: pad(date.getMinutes()),
    s: pad(date.getSeconds()),
  };
  return pattern.replace(/\{([ymdhisa])+\}/g, (_, key: string) =>
    key === 'a'
      ? new Intl.DateTimeFormat(i18n.language || 'en', { weekday: 'short' }).format(date)
      : (parts[key] ?? ''),
  );
}

/**
 * Time ago (§9): under 30 s "just now", under an hour minutes, under a day hours, under two days
 * "1 day ago", otherwise `pattern` when given or month/day hour:minute. Texts come from the
 * `common:timeAgo` keys in the current language (or the `t` passed in).
 */
export function formatTime(time: TimeInput, pattern?: string, t: TFunction = i18n.t): string {
  const date = toDate(time);
  if (!date) return '';
  const diff = (Date.now() - date.getTime()) / 1000;
  if (diff < 30) return t('common:timeAgo.justNow');
  if (diff < 3600) return t('common:timeAgo.minutes', { count: Math.ceil(diff / 60) });
  if (diff < 3600 * 24) return t('common:timeAgo.hours', { count: Math.ceil(diff / 3600) });
  if (diff < 3600 * 24 * 2) return t('common:timeAgo.oneDay');
  if (pattern) return parseTime(date, pattern) ?? '';
  return t('common:timeAgo.date', {
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: pad(date.getMinutes()),
  });
}

const SI = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
];

/** 1500 → "1.5k" with `digits` decimals at most (trailing zeros dropped); keeps the sign. */
export function numberFormatter(num: number, digits = 1): string {
  if (!Number.isFinite(num)) return String(num);
  const abs = Math.abs(num);
  const sign = num < 0 ? '-' : '';
  for (const { value, symbol } of SI) {
    if (abs >= value) {
      const scaled = (abs / value).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1');
      return sign + scaled + symbol;
    }
  }
  return String(num);
}

/** 10000 → "10,000"; decimals are kept as they are; not-a-number becomes "0". */
export function toThousandFilter(num: number | string): string {
  const value = Number(num) || 0;
  return value.toString().replace(/^-?\d+/, (int) => int.replace(/(?=(?!\b)(\d{3})+$)/g, ','));
}

/**
 * A number in the UI language's way (decimal comma in Spanish), with exactly `digits` decimals
 * when given; never grouped, since device values include codes and versions (20240722).
 */
export function formatNumber(value: number, digits?: number, lang: string = i18n.language || 'en'): string {
  const fixed = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(lang, { useGrouping: false, ...fixed }).format(value);
}

/**
 * A value with its unit symbol, "0.00 kWh": a non-breaking space between them (SI, in every
 * language: the two never wrap apart) and the number per language. Units stay symbols (V, kWh,
 * °C), the same in the four languages.
 */
export function formatQuantity(value: number, unit: string, digits?: number, lang?: string): string {
  return `${formatNumber(value, digits, lang)}\u00A0${unit}`;
}

/**
 * A count for a dashboard figure in the UI language: grouped below 100,000 ("12,345", "12.345"
 * in Spanish), then with the §9 suffixes ("1.2M", "1,2M") so a card never overflows.
 */
export function formatCount(value: number, lang: string = i18n.language || 'en'): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) < 100_000) return new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(value);
  const short = numberFormatter(value, 1);
  const decimal = new Intl.NumberFormat(lang).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return decimal === '.' ? short : short.replace('.', decimal);
}

/** A share as a percentage in the UI language ("87 %", "87 %" with the language's spacing). */
export function formatPercent(part: number, whole: number, lang: string = i18n.language || 'en'): string {
  const share = whole > 0 ? part / whole : 0;
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: share > 0 && share < 0.01 ? 1 : 0 }).format(share);
}

/** A size in bytes as people read it: 512 B, 12.3 KB, 4.56 MB, 1.2 GB (1024-based). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${units[i]}`;
}
