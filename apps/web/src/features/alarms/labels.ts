import type { AlarmDto } from '@iot/contract';
import { currentLanguage, languageSuffix } from '../../lib/i18n';

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
