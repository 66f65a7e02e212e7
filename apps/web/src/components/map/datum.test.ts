import { describe, expect, it } from 'vitest';
import { wgs84ToGcj02 } from '@iot/contract/plain';
import { datumFor } from './datum';

describe('the map datum', () => {
  it('draws stored WGS-84 positions as they are on WGS-84 tiles and on the bundled outline', () => {
    for (const d of [datumFor('wgs84', true), datumFor('gcj02', false)]) {
      expect(d.toMap(121.47, 31.23)).toEqual([31.23, 121.47]);
      expect(d.fromMap(31.23, 121.47)).toEqual([121.47, 31.23]);
    }
  });

  it('shifts positions in China onto GCJ-02 tiles, and a click there back to WGS-84', () => {
    const d = datumFor('gcj02', true);
    const [gLng, gLat] = wgs84ToGcj02(121.47, 31.23);
    expect(d.toMap(121.47, 31.23)).toEqual([gLat, gLng]);
    const [lng, lat] = d.fromMap(gLat, gLng);
    expect(lng).toBeCloseTo(121.47, 8);
    expect(lat).toBeCloseTo(31.23, 8);
    // Outside China nothing moves.
    expect(d.toMap(-3.7, 40.4)).toEqual([40.4, -3.7]);
  });
});
