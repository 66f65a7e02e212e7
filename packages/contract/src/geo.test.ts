import { describe, expect, it } from 'vitest';
import { gcj02ToWgs84, outOfChina, wgs84ToGcj02 } from './geo.js';

/**
 * Published reference pairs of the transformation (the eviltransform project's test points):
 * WGS-84 → GCJ-02 as AutoNavi and Tencent tiles draw them.
 */
const REFERENCE = [
  { place: 'Shanghai', wgs: [121.5272106, 31.1774276], gcj: [121.531541859215, 31.17530398364597] },
  { place: 'Shenzhen', wgs: [113.912316, 22.543847], gcj: [113.9171764808363, 22.540796131694766] },
  { place: 'Beijing', wgs: [116.377817, 39.911954], gcj: [116.38404722455657, 39.91334545536069] },
] as const;

describe('WGS-84 ↔ GCJ-02', () => {
  it.each(REFERENCE)('$place: WGS-84 to GCJ-02 matches the published point', ({ wgs, gcj }) => {
    const [lng, lat] = wgs84ToGcj02(wgs[0], wgs[1]);
    expect(lng).toBeCloseTo(gcj[0], 9);
    expect(lat).toBeCloseTo(gcj[1], 9);
  });

  it.each(REFERENCE)('$place: GCJ-02 back to WGS-84 within a millimetre', ({ wgs, gcj }) => {
    const [lng, lat] = gcj02ToWgs84(gcj[0], gcj[1]);
    // 1e-8 degrees is about a millimetre.
    expect(Math.abs(lng - wgs[0])).toBeLessThan(1e-8);
    expect(Math.abs(lat - wgs[1])).toBeLessThan(1e-8);
  });

  it('shifts mainland positions by a few hundred metres, not more', () => {
    const [lng, lat] = wgs84ToGcj02(104.066, 30.572); // Chengdu
    const metres = Math.hypot((lng - 104.066) * 111_320 * Math.cos((30.572 * Math.PI) / 180), (lat - 30.572) * 110_574);
    expect(metres).toBeGreaterThan(100);
    expect(metres).toBeLessThan(1000);
  });

  it('leaves positions outside China unchanged, both ways', () => {
    for (const [lng, lat] of [
      [-3.7038, 40.4168], // Madrid
      [139.6917, 35.6895], // Tokyo: east of the box
      [151.2093, -33.8688], // Sydney
      [0, 0],
    ] as const) {
      expect(outOfChina(lng, lat)).toBe(true);
      expect(wgs84ToGcj02(lng, lat)).toEqual([lng, lat]);
      expect(gcj02ToWgs84(lng, lat)).toEqual([lng, lat]);
    }
    expect(outOfChina(121.47, 31.23)).toBe(false);
  });
});
