/**
 * Great-circle distance on a sphere of the Earth's mean radius (IUGG R1), by the haversine
 * formula: exact on the sphere, within about 0.5 % of the ellipsoid anywhere, stable for short
 * distances and across the antimeridian (longitudes are differences only). Zod-free: exported
 * through `@iot/contract/plain` for the console and the server alike.
 */

/** The Earth's mean radius in meters (IUGG R1). */
export const EARTH_RADIUS_M = 6_371_008.8;

const RAD = Math.PI / 180;

/** Meters between two points given in degrees (longitude, latitude). */
export function distanceMeters(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const s = Math.sin(dLat / 2);
  const t = Math.sin(dLng / 2);
  const h = s * s + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * t * t;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
