import { describe, expect, it } from 'vitest';
import { enumLabel, localName, ruleMessage } from './localize';

describe('localized names', () => {
  const p = { name: '总电压', nameEn: 'Pack voltage', nameEs: '', nameJa: '総電圧' };
  it('picks the column of the language', () => {
    expect(localName(p, 'zh')).toBe('总电压');
    expect(localName(p, 'en')).toBe('Pack voltage');
    expect(localName(p, 'ja')).toBe('総電圧');
  });
  it('falls back to the Chinese name when the column is empty or blank', () => {
    expect(localName(p, 'es')).toBe('总电压');
    expect(localName({ ...p, nameEn: '  ' }, 'en')).toBe('总电压');
  });
  it('works for enum labels and alarm messages', () => {
    expect(enumLabel({ label: '充电', labelEn: 'Charging', labelEs: 'Cargando', labelJa: '' }, 'es')).toBe('Cargando');
    expect(enumLabel({ label: '充电', labelEn: 'Charging', labelEs: 'Cargando', labelJa: '' }, 'ja')).toBe('充电');
    expect(ruleMessage({ message: '电量过低', messageEn: 'Low state of charge' }, 'en')).toBe('Low state of charge');
  });
});
