import { describe, expect, it } from 'vitest';
import { canSpeak, captchaWav } from './captcha-audio.js';

/** A seeded generator: the same mix every run. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('captcha audio', () => {
  it('speaks every character a captcha may hold, in either case', () => {
    expect(canSpeak('abcdefghijklmnopqrstuvwxyz0123456789')).toBe(true);
    expect(canSpeak('ABCDEFGHIJKLMNOPQRSTUVWXYZ')).toBe(true);
    expect(canSpeak('a-b')).toBe(false);
  });

  it('is a valid 8-bit mono WAV whose loud parts follow the characters', () => {
    const wav = captchaWav('a7', seeded(1));
    const data = wav.subarray(44);
    expect(wav.readUInt32LE(40)).toBe(data.length);
    // Four loud stretches (two characters, said twice) between quiet pauses.
    const rate = wav.readUInt32LE(24);
    const window = Math.round(rate * 0.05);
    const loud: boolean[] = [];
    for (let at = 0; at + window <= data.length; at += window) {
      let energy = 0;
      for (let i = at; i < at + window; i++) energy += Math.abs(data[i]! - 128);
      loud.push(energy / window > 12);
    }
    const stretches = loud.filter((v, i) => v && !loud[i - 1]).length;
    expect(stretches).toBeGreaterThanOrEqual(4);
    expect(stretches).toBeLessThanOrEqual(8);
  });

  it('mixes each answer afresh', () => {
    expect(captchaWav('ab', seeded(1)).equals(captchaWav('ab', seeded(2)))).toBe(false);
    expect(captchaWav('ab', seeded(3)).equals(captchaWav('ab', seeded(3)))).toBe(true);
  });
});
