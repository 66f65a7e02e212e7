/**
 * WGS-84 ↔ GCJ-02. Devices report WGS-84 (GPS); map providers in mainland China (AutoNavi, Tencent…)
 * draw their tiles on GCJ-02, an obfuscated datum shifted by a few hundred metres. A console on
 * such tiles (MAP_TILE_DATUM=gcj02) converts every position it draws with `wgs84ToGcj02` and every
 * point the user clicks back with `gcj02ToWgs84`, so the database only ever holds WGS-84.
 *
 * The published transformation (constants of the Krasovsky ellipsoid as the datum uses them);
 * outside mainland China's bounding box GCJ-02 equals WGS-84. Zod-free: part of
 * `@iot/contract/plain`.
 */

const A = 6_378_245.0;
const EE = 0.006_693_421_622_965_943;

/** Outside the box the datum applies to: positions there are not shifted. */
export function outOfChina(lng: number, lat: number): boolean {
  return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271;
}

function shift(lng: number, lat: number): [number, number] {
  const x = lng - 105.0;
  const y = lat - 35.0;
  const common = ((20 * Math.sin(6 * x * Math.PI) + 20 * Math.sin(2 * x * Math.PI)) * 2) / 3;
  let dLat = -100 + 2 * x + 3 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x)) + common;
  dLat += ((20 * Math.sin(y * Math.PI) + 40 * Math.sin((y / 3) * Math.PI)) * 2) / 3;
  dLat += ((160 * Math.sin((y / 12) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30)) * 2) / 3;
  let dLng = 300 + x + 2 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x)) + common;
  dLng += ((20 * Math.sin(x * Math.PI) + 40 * Math.sin((x / 3) * Math.PI)) * 2) / 3;
  dLng += ((150 * Math.sin((x / 12) * Math.PI) + 300 * Math.sin((x / 30) * Math.PI)) * 2) / 3;
  const radLat = (lat / 180) * Math.PI;
  const magic = 1 - EE * Math.sin(radLat) ** 2;
  const sqrtMagic = Math.sqrt(magic);
  return [
    (dLng * 180) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI),
    (dLat * 180) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI),
  ];
}

/** A WGS-84 position as drawn on GCJ-02 tiles, [lng, lat]. */
export function wgs84ToGcj02(lng: number, lat: number): [number, number] {
  if (outOfChina(lng, lat)) return [lng, lat];
  const [dLng, dLat] = shift(lng, lat);
  return [lng + dLng, lat + dLat];
}

/**
 * The WGS-84 position drawn at a GCJ-02 point, [lng, lat]: the forward conversion inverted by
 * fixed-point iteration (the shift varies slowly, so a few steps reach well below a millimetre).
 */
export function gcj02ToWgs84(lng: number, lat: number): [number, number] {
  if (outOfChina(lng, lat)) return [lng, lat];
  let wLng = lng;
  let wLat = lat;
  for (let i = 0; i < 30; i++) {
    const [gLng, gLat] = wgs84ToGcj02(wLng, wLat);
    const eLng = gLng - lng;
    const eLat = gLat - lat;
    wLng -= eLng;
    wLat -= eLat;
    if (Math.abs(eLng) < 1e-10 && Math.abs(eLat) < 1e-10) break;
  }
  return [wLng, wLat];
}
