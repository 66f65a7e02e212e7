import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M, distanceMeters } from './geo-distance.js';
import { fenceBand, insideAfter } from './fence-rules.js';

const DEG = Math.PI / 180;
/** The point `m` metres from (lng, lat) on bearing `deg` (spherical destination formula). */
function destination(lng: number, lat: number, m: number, deg: number): [number, number] {
  const d = m / EARTH_RADIUS_M;
  const φ1 = lat * DEG;
  const θ = deg * DEG;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
  const λ2 = lng * DEG + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return [(((λ2 / DEG + 540) % 360) - 180), φ2 / DEG];
}

/** Whether a device `m` metres from the centre on bearing `deg` counts as inside, from `before`. */
const inside = (c: [number, number], radius: number, m: number, deg: number, before?: boolean) => {
  const [lng, lat] = destination(c[0], c[1], m, deg);
  return insideAfter(before, distanceMeters(c[0], c[1], lng, lat), radius);
};

describe('fence crossing', () => {
  it('has a band of 5 % of the radius, at least 20 m', () => {
    expect(fenceBand(10)).toBe(20);
    expect(fenceBand(400)).toBe(20);
    expect(fenceBand(1000)).toBe(50);
    expect(fenceBand(100_000)).toBe(5000);
  });

  // Centres at the equator, mid and high latitudes, next to both poles and on the antimeridian;
  // every bearing, so a fence is a circle on the ground wherever it is.
  const CENTRES: [string, [number, number]][] = [
    ['equator', [0, 0]],
    ['Beijing', [116.397, 39.909]],
    ['Tromsø', [18.955, 69.649]],
    ['near the north pole', [40, 89.995]],
    ['near the south pole', [-120, -89.99]],
    ['on the antimeridian', [180, -17.7]],
    ['west of the antimeridian', [-179.9995, 52]],
  ];
  for (const [name, c] of CENTRES) {
    it(`is a circle at ${name}`, () => {
      for (let deg = 0; deg < 360; deg += 30) {
        expect(inside(c, 500, 480, deg)).toBe(true);
        expect(inside(c, 500, 560, deg)).toBe(false);
        // From inside, the border and its band (25 m) keep it inside; from outside it must come within the radius.
        expect(inside(c, 500, 515, deg, true)).toBe(true);
        expect(inside(c, 500, 515, deg, false)).toBe(false);
        expect(inside(c, 500, 524, deg, true)).toBe(true);
        expect(inside(c, 500, 527, deg, true)).toBe(false);
        expect(inside(c, 500, 499, deg, false)).toBe(true);
      }
    });
  }

  it('does not flap on GPS jitter round the border', () => {
    const c: [number, number] = [116.397, 39.909];
    let state: boolean | undefined;
    let crossings = 0;
    // 200 fixes wandering ±15 m round 505 m from the centre of a 500 m fence (band 25 m).
    for (let i = 0; i < 200; i++) {
      const next = inside(c, 500, 505 + 15 * Math.sin(i * 1.7), i * 7, state);
      if (state !== undefined && next !== state) crossings++;
      state = next;
    }
    expect(crossings).toBe(0);
  });

  it('a small fence (10 m, band 20 m) can still be left and entered', () => {
    const c: [number, number] = [0, 45];
    expect(inside(c, 10, 25, 90, true)).toBe(true);
    expect(inside(c, 10, 31, 90, true)).toBe(false);
    expect(inside(c, 10, 9, 90, false)).toBe(true);
  });
});
