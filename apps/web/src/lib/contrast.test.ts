import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrast, readableOn } from './contrast';

describe('contrast', () => {
  it('is 21 for black on white and 1 for equal colours', () => {
    expect(contrast('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrast('#409EFF', '#409eff')).toBe(1);
  });
});

describe('readableOn', () => {
  it('darkens the default blue just enough for white text', () => {
    const blue = readableOn('#409EFF', '#FFFFFF');
    expect(contrast(blue, '#FFFFFF')).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrast(blue, '#FFFFFF')).toBeLessThan(AA_TEXT + 0.3);
  });

  it('lightens a colour on a dark background', () => {
    const light = readableOn('#409EFF', '#0B1A2F');
    expect(contrast(light, '#0B1A2F')).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('keeps a colour that is already readable, and what is not a hex colour', () => {
    expect(readableOn('#304156', '#FFFFFF')).toBe('#304156');
    expect(readableOn('red', '#FFFFFF')).toBe('red');
  });
});
