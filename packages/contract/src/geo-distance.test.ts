import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M, distanceMeters } from './geo-distance.js';

const QUARTER = (Math.PI / 2) * EARTH_RADIUS_M;

describe('distanceMeters', () => {
  it('is zero for one point and symmetric', () => {
    expect(distanceMeters(116.397, 39.909, 116.397, 39.909)).toBe(0);
    expect(distanceMeters(2.35, 48.85, -0.13, 51.51)).toBeCloseTo(distanceMeters(-0.13, 51.51, 2.35, 48.85), 6);
  });

  it('measures a degree of latitude the same at every latitude, and a degree of longitude shrinking with cos(lat)', () => {
    const degree = EARTH_RADIUS_M * (Math.PI / 180);
    for (const lat of [0, 30, 45, 60, 80]) {
      expect(distanceMeters(10, lat, 10, lat + 1)).toBeCloseTo(degree, 3);
      // Along a parallel the great circle is a little shorter than the parallel itself.
      const along = distanceMeters(10, lat, 10.001, lat);
      expect(along / (0.001 * degree * Math.cos(lat * (Math.PI / 180)))).toBeCloseTo(1, 5);
    }
  });

  it('agrees with published city distances (within 0.5 %, the sphere against the ellipsoid)', () => {
    // Paris–London 343.5 km, Beijing–Shanghai 1067 km, Sydney–Santiago 11,340 km (great circle, WGS 84).
    expect(distanceMeters(2.3522, 48.8566, -0.1276, 51.5072) / 343_500).toBeCloseTo(1, 2);
    expect(distanceMeters(116.4074, 39.9042, 121.4737, 31.2304) / 1_067_000).toBeCloseTo(1, 2);
    expect(distanceMeters(151.2093, -33.8688, -70.6693, -33.4489) / 11_340_000).toBeCloseTo(1, 2);
  });

  it('is right near the poles: any longitude at a pole is the same point, a quarter meridian to the equator', () => {
    expect(distanceMeters(0, 90, 120, 90)).toBeCloseTo(0, 6);
    expect(distanceMeters(45, -90, -135, -90)).toBeCloseTo(0, 6);
    expect(distanceMeters(77, 90, 13, 0)).toBeCloseTo(QUARTER, 3);
    // Across the pole: 89.9°N on opposite meridians is 0.2° of arc apart, not half the world.
    expect(distanceMeters(0, 89.9, 180, 89.9)).toBeCloseTo(0.2 * (Math.PI / 180) * EARTH_RADIUS_M, 3);
    expect(distanceMeters(0, 90, 0, -90)).toBeCloseTo(2 * QUARTER, 3);
  });

  it('goes across the antimeridian the short way', () => {
    const near = distanceMeters(179.9, 0, -179.9, 0);
    expect(near).toBeCloseTo(0.2 * (Math.PI / 180) * EARTH_RADIUS_M, 3);
    expect(distanceMeters(179.999, 65, -179.999, 65)).toBeLessThan(200);
    expect(distanceMeters(-180, 10, 180, 10)).toBeCloseTo(0, 6);
  });
});
