import { describe, expect, it } from 'vitest';
import { advance, indexAt, PLAY_RANGE_MS, positionAt, unwrapLngs } from './playback';

describe('track playback', () => {
  const t = [1000, 2000, 4000, 8000];
  it('finds the fix at or before a time', () => {
    expect(indexAt(t, 0)).toBe(0);
    expect(indexAt(t, 1000)).toBe(0);
    expect(indexAt(t, 1999)).toBe(0);
    expect(indexAt(t, 2000)).toBe(1);
    expect(indexAt(t, 7999)).toBe(2);
    expect(indexAt(t, 9000)).toBe(3);
    expect(indexAt([], 5)).toBe(0);
  });

  it('interpolates the position and distance between fixes', () => {
    const p = { t, lat: [0, 10, 20, 30], distance: [0, 100, 300, 700] };
    expect(positionAt(p, [0, 1, 2, 3], 3000)).toEqual({ index: 1, lat: 15, lng: 1.5, distance: 200 });
    expect(positionAt(p, [0, 1, 2, 3], 8000)).toMatchObject({ index: 3, lat: 30, distance: 700 });
    expect(positionAt({ t: [], lat: [], distance: [] }, [], 0)).toBeNull();
  });

  it('draws across the antimeridian, not round the world', () => {
    expect(unwrapLngs([179.8, 179.9, -179.9, -179.8])).toEqual([179.8, 179.9, 180.1 - 0, 180.2].map((x) => expect.closeTo(x, 9)));
    expect(unwrapLngs([-179.9, 179.9, 179.8])).toEqual([-179.9, -180.1, -180.2].map((x) => expect.closeTo(x, 9)));
    expect(unwrapLngs([10, 11, 12])).toEqual([10, 11, 12]);
  });

  it('1× plays the range in a minute, 8× in 7.5 s', () => {
    expect(advance(86_400_000, 1, PLAY_RANGE_MS)).toBe(86_400_000);
    expect(advance(86_400_000, 8, 7500)).toBe(86_400_000);
  });
});
