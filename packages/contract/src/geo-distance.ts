/** The mean Earth radius (IUGG), metres: the sphere distances are measured on. */
export const EARTH_RADIUS_M = 6_371_008.8;

const RAD = Math.PI / 180;

/**
 * Great-circle distance in metres between two points given in degrees (haversine on the mean
 * sphere: within 0.5 % of the ellipsoid everywhere, exact enough for fences and track lengths).
 * Longitudes may be given either side of the antimeridian (179.9 and −179.9 are 20 km apart near
 * the equator, not 40,000).
 */
export function distanceMeters(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}
