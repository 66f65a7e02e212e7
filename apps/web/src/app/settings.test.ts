import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrast } from '../lib/contrast';
import { primaryFor, THEME_PRESETS } from './settings';

describe('primaryFor', () => {
  it('gives every preset of the settings panel a shade that white text and white pages read on', () => {
    for (const preset of [...THEME_PRESETS, '#FFFFFF', '#FADB14']) {
      expect(contrast(primaryFor(preset), '#FFFFFF'), preset).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });
});
