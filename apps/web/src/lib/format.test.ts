import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from './i18n';
import { formatBytes, formatNumber, formatQuantity, formatTime, numberFormatter, parseTime, toThousandFilter } from './format';

// Local-time dates so the expectations hold in any time zone.
const JAN_2 = new Date(2024, 0, 2, 3, 4, 5);

describe('parseTime', () => {
  it('formats with the default zero-padded pattern', () => {
    expect(parseTime(JAN_2)).toBe('2024-01-02 03:04:05');
  });

  it('reads a 13-digit number as milliseconds and a 10-digit number as seconds', () => {
    const ms = JAN_2.getTime();
    expect(parseTime(ms)).toBe('2024-01-02 03:04:05');
    expect(parseTime(Math.floor(ms / 1000))).toBe('2024-01-02 03:04:05');
  });

  it('accepts strings of digits like numbers', () => {
    const ms = JAN_2.getTime();
    expect(parseTime(String(ms))).toBe('2024-01-02 03:04:05');
    expect(parseTime(String(Math.floor(ms / 1000)))).toBe('2024-01-02 03:04:05');
  });

  it('accepts ISO strings and local "y-m-d h:i" strings', () => {
    expect(parseTime(JAN_2.toISOString())).toBe('2024-01-02 03:04:05');
    expect(parseTime('2024-1-2 3:04', '{y}/{m}/{d} {h}:{i}')).toBe('2024/01/02 03:04');
  });

  it('applies a custom pattern', () => {
    expect(parseTime(JAN_2, '{d}.{m}.{y}')).toBe('02.01.2024');
    expect(parseTime(new Date(2024, 10, 25, 23, 59, 9), '{h}:{i}:{s}')).toBe('23:59:09');
  });

  it('returns null for empty or invalid input', () => {
    expect(parseTime(null)).toBeNull();
    expect(parseTime(undefined)).toBeNull();
    expect(parseTime('')).toBeNull();
    expect(parseTime('not a date')).toBeNull();
  });
});

describe('formatTime', () => {
  const now = new Date(2024, 5, 15, 12, 0, 0).getTime();
  const ago = (seconds: number) => now - seconds * 1000;

  beforeAll(() => {
    vi.useFakeTimers();
  });
  beforeEach(async () => {
    vi.setSystemTime(now);
    await i18n.changeLanguage('zh');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.useFakeTimers();
  });

  it('says just now under 30 seconds and minutes from 30 seconds', () => {
    expect(formatTime(ago(0))).toBe('刚刚');
    expect(formatTime(ago(29))).toBe('刚刚');
    expect(formatTime(ago(30))).toBe('1分钟前');
  });

  it('counts minutes under an hour and hours from 60 minutes', () => {
    expect(formatTime(ago(59 * 60))).toBe('59分钟前');
    expect(formatTime(ago(60 * 60))).toBe('1小时前');
    expect(formatTime(ago(23 * 3600))).toBe('23小时前');
  });

  it('says one day between 24 and 48 hours, then a date', () => {
    expect(formatTime(ago(24 * 3600))).toBe('1天前');
    expect(formatTime(ago(47 * 3600))).toBe('1天前');
    expect(formatTime(new Date(2024, 5, 13, 9, 5, 0))).toBe('6月13日9时05分');
    expect(formatTime(new Date(2024, 5, 13, 9, 5, 0), '{y}-{m}-{d}')).toBe('2024-06-13');
  });

  it('treats 10-digit timestamps as seconds', () => {
    expect(formatTime(Math.floor(ago(120) / 1000))).toBe('2分钟前');
    expect(formatTime(String(Math.floor(ago(120) / 1000)))).toBe('2分钟前');
  });

  it('speaks the UI language', async () => {
    await i18n.changeLanguage('en');
    expect(formatTime(ago(5))).toBe('just now');
    expect(formatTime(ago(30))).toBe('1 minute ago');
    expect(formatTime(ago(600))).toBe('10 minutes ago');
    expect(formatTime(ago(7200))).toBe('2 hours ago');
    expect(formatTime(ago(30 * 3600))).toBe('1 day ago');
    await i18n.changeLanguage('es');
    expect(formatTime(ago(600))).toBe('hace 10 minutos');
    await i18n.changeLanguage('ja');
    expect(formatTime(ago(600))).toBe('10分前');
  });

  it('returns an empty string for empty input', () => {
    expect(formatTime(null)).toBe('');
  });
});

describe('numberFormatter', () => {
  it('uses k, M, G, T, P, E suffixes', () => {
    expect(numberFormatter(1500)).toBe('1.5k');
    expect(numberFormatter(1000)).toBe('1k');
    expect(numberFormatter(2_500_000)).toBe('2.5M');
    expect(numberFormatter(3e9)).toBe('3G');
    expect(numberFormatter(4.25e12, 2)).toBe('4.25T');
    expect(numberFormatter(5e15)).toBe('5P');
    expect(numberFormatter(6e18)).toBe('6E');
  });

  it('keeps small numbers and zero as they are', () => {
    expect(numberFormatter(0)).toBe('0');
    expect(numberFormatter(999)).toBe('999');
  });

  it('drops trailing zeros only', () => {
    expect(numberFormatter(1234, 2)).toBe('1.23k');
    expect(numberFormatter(1200, 2)).toBe('1.2k');
  });

  it('handles negatives without crashing', () => {
    expect(numberFormatter(-1500)).toBe('-1.5k');
    expect(numberFormatter(-5)).toBe('-5');
  });
});

describe('toThousandFilter', () => {
  it('groups thousands', () => {
    expect(toThousandFilter(0)).toBe('0');
    expect(toThousandFilter(999)).toBe('999');
    expect(toThousandFilter(1000)).toBe('1,000');
    expect(toThousandFilter(1234567)).toBe('1,234,567');
    expect(toThousandFilter(-1234567.89)).toBe('-1,234,567.89');
    expect(toThousandFilter('10000')).toBe('10,000');
    expect(toThousandFilter('abc')).toBe('0');
  });
});

describe('carrier dates and quantities (issue 33)', () => {
  it('reads a carrier’s compact local time (yyyyMMddHHmmss, yyyyMMdd) as a date', () => {
    expect(parseTime('20240722000000')).toBe('2024-07-22 00:00:00');
    expect(parseTime('20240722153045', '{y}-{m}-{d} {h}:{i}')).toBe('2024-07-22 15:30');
    expect(parseTime('20240722', '{y}-{m}-{d}')).toBe('2024-07-22');
  });

  it('writes a value and its unit apart, the number in the language’s way', () => {
    expect(formatQuantity(0, 'kWh', 2, 'en')).toBe('0.00\u00A0kWh');
    expect(formatQuantity(12.5, 'kWh', 2, 'es')).toBe('12,50\u00A0kWh');
    expect(formatQuantity(3.3, 'V', 3, 'zh')).toBe('3.300\u00A0V');
    // Codes and versions are never grouped.
    expect(formatNumber(20240722, 0, 'en')).toBe('20240722');
  });
});

describe('dashboard counts (issue 34)', () => {
  it('groups counts below 100,000 per language and shortens larger ones with §9 suffixes', async () => {
    const { formatCount } = await import('./format');
    expect(formatCount(0, 'en')).toBe('0');
    expect(formatCount(12_345, 'en')).toBe('12,345');
    expect(formatCount(12_345, 'es')).toBe('12.345');
    expect(formatCount(99_999, 'ja')).toBe('99,999');
    expect(formatCount(100_000, 'en')).toBe('100k');
    expect(formatCount(1_250_000, 'en')).toBe('1.3M');
    expect(formatCount(1_250_000, 'es')).toBe('1,3M');
    expect(formatCount(3e9, 'zh')).toBe('3G');
  });

  it('writes shares as percentages, zero of nothing', async () => {
    const { formatPercent } = await import('./format');
    expect(formatPercent(87, 100, 'en')).toBe('87%');
    expect(formatPercent(0, 0, 'en')).toBe('0%');
    expect(formatPercent(1, 1000, 'en')).toBe('0.1%');
    expect(formatPercent(1, 2, 'es')).toMatch(/^50\s?%$/);
  });
});

describe('formatBytes', () => {
  it('reads as bytes, then 1024-based units with three significant digits', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.00 KB');
    expect(formatBytes(20_000)).toBe('19.5 KB');
    expect(formatBytes(128 * 1024 * 1024)).toBe('128 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.00 GB');
  });
});
