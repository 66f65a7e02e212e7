import { describe, expect, it } from 'vitest';
import { distanceMeters, EARTH_RADIUS_M } from './geo-distance.js';

/** Meters of one degree along a meridian on the sphere. */
const DEG = (EARTH_RADIUS_M * Math.PI) / 180;

describe('distanceMeters (haversine)', () => {
  it('is zero for the same point and symmetric', () => {
    expect(distanceMeters(116.397, 39.909, 116.397, 39.909)).toBe(0);
    const a = distanceMeters(2.35, 48.86, -0.13, 51.51);
    expect(distanceMeters(-0.13, 51.51, 2.35, 48.86)).toBeCloseTo(a, 6);
  });

  it('one degree of latitude is the same at every latitude', () => {
    for (const lat of [-80, -45, 0, 30, 60, 89]) expect(distanceMeters(10, lat, 10, lat + 1)).toBeCloseTo(DEG, 3);
  });

  it('one degree of longitude shrinks with the cosine of the latitude', () => {
    expect(distanceMeters(0, 0, 1, 0)).toBeCloseTo(DEG, 3);
    // Along a parallel the great circle is slightly shorter than the parallel; at 1° it is within a millimetre or so.
    for (const lat of [30, 45, 60, 75]) {
      const d = distanceMeters(0, lat, 1, lat);
      expect(Math.abs(d - DEG * Math.cos((lat * Math.PI) / 180))).toBeLessThan(1);
    }
  });

  it('known city pairs (sphere, within 0.5 % of the published ellipsoid figures)', () => {
    // Paris – London 343.5 km; Beijing – Shanghai 1,067 km; Sydney – Auckland 2,156 km.
    expect(distanceMeters(2.3522, 48.8566, -0.1276, 51.5072) / 343_500).toBeCloseTo(1, 2);
    expect(distanceMeters(116.4074, 39.9042, 121.4737, 31.2304) / 1_067_000).toBeCloseTo(1, 2);
    expect(distanceMeters(151.2093, -33.8688, 174.7633, -36.8485) / 2_156_000).toBeCloseTo(1, 2);
  });

  it('near the poles: across the pole is the sum of the two colatitudes', () => {
    expect(distanceMeters(0, 89.9, 180, 89.9)).toBeCloseTo(0.2 * DEG, 3);
    expect(distanceMeters(-90, -89.5, 90, -89.5)).toBeCloseTo(1 * DEG, 3);
    // Every meridian meets at the pole.
    expect(distanceMeters(0, 90, 123, 90)).toBeCloseTo(0, 6);
  });

  it('across the antimeridian: the short way round, not round the world', () => {
    expect(distanceMeters(179.9, 0, -179.9, 0)).toBeCloseTo(0.2 * DEG, 3);
    expect(distanceMeters(-179.95, 65, 179.95, 65)).toBeCloseTo(distanceMeters(0, 65, 0.1, 65), 6);
  });

  it('antipodes are half the circumference (haversine loses a little precision there: under a metre)', () => {
    expect(Math.abs(distanceMeters(0, 0, 180, 0) - Math.PI * EARTH_RADIUS_M)).toBeLessThan(1);
    expect(Math.abs(distanceMeters(30, 40, -150, -40) - Math.PI * EARTH_RADIUS_M)).toBeLessThan(1);
  });
});
