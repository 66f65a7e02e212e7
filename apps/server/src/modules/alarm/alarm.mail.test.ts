import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type AlarmDto } from '@iot/contract';
import { SEVERITY_WORDS, composeMail } from './alarm.mail.js';

const locales = path.join(import.meta.dirname, '../../../../web/src/locales');

describe('alarm e-mail words', () => {
  it('names each level with the console’s words, in every language (one severity scale)', () => {
    for (const lang of LANGUAGES) {
      const common = JSON.parse(fs.readFileSync(path.join(locales, lang, 'common.json'), 'utf8')) as { severity: Record<string, string> };
      for (const level of [1, 2, 3, 4] as const) expect(SEVERITY_WORDS[lang][level], `${lang} ${level}`).toBe(common.severity[level]);
    }
  });

  it('puts the level’s word in the subject and the body', () => {
    const alarm = {
      id: 7, deviceId: 1, deviceName: 'Rack 1', sn: 'R-1', level: 4, semaphoreId: '10000013', value: '3.71',
      name: '最高单体电压', nameEn: 'Max cell voltage', nameEs: '', nameJa: '', message: '单体过压', messageEn: 'Cell over-voltage',
      messageEs: '', messageJa: '', startedAt: '2026-01-02T03:04:05.000Z',
    } as AlarmDto;
    expect(composeMail(alarm, 'en')).toMatchObject({ subject: '[Critical alarm, level 4] Rack 1 (R-1): Cell over-voltage' });
    expect(composeMail(alarm, 'en').text).toContain('Level: 4 (Critical)');
    expect(composeMail(alarm, 'zh').subject).toBe('[严重·4级告警] Rack 1 (R-1)：单体过压');
  });
});
