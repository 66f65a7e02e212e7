import i18n from '../../lib/i18n';

/** A local day `YYYY-MM-DD` as the UI language writes a short date ("11/27", "27/11", "11月27日"). */
export function dayLabel(date: string, lang: string = i18n.language || 'en'): string {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return date;
  return new Intl.DateTimeFormat(lang, { month: 'numeric', day: 'numeric' }).format(new Date(y, m - 1, d));
}
