import type { AlarmDto } from '@iot/contract';
import { currentLanguage, languageSuffix } from '../../lib/i18n';

/** Tag colours of levels 1–4 (4 is the worst). */
export const LEVEL_COLORS: Record<number, string> = { 1: 'blue', 2: 'gold', 3: 'orange', 4: 'red' };

/** A text of the four-language fields in the UI language, falling back to Chinese and English. */
function localized(a: AlarmDto, base: 'name' | 'message'): string {
  const suffix = languageSuffix(currentLanguage());
  const key = `${base}${suffix}` as keyof AlarmDto;
  const value = a[key];
  return (typeof value === 'string' && value) || (base === 'name' ? a.nameEn || a.name : a.messageEn || a.message);
}

/** The parameter's name (the semaphore id when the type has no such parameter any more). */
export const alarmName = (a: AlarmDto) => localized(a, 'name') || a.semaphoreId;
/** What the alarm says: its rule's message, else the parameter's name. */
export const alarmText = (a: AlarmDto) => localized(a, 'message') || alarmName(a);
