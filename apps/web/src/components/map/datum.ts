import { gcj02ToWgs84, wgs84ToGcj02, type MapTileDatum } from '@iot/contract/plain';

/**
 * Between the positions the console stores (WGS-84, [lng, lat]) and where the map draws them:
 * the same place on WGS-84 tiles, shifted on GCJ-02 tiles (MAP_TILE_DATUM=gcj02, providers in
 * mainland China; packages/contract geo.ts). Every layer a screen adds goes through these two.
 */
export interface Datum {
  /** Where a stored position is drawn, as Leaflet's [lat, lng]. */
  toMap(lng: number, lat: number): [number, number];
  /** The stored position of a point on the map (a click), [lng, lat]. */
  fromMap(lat: number, lng: number): [number, number];
}

const WGS84: Datum = {
  toMap: (lng, lat) => [lat, lng],
  fromMap: (lat, lng) => [lng, lat],
};

const GCJ02: Datum = {
  toMap: (lng, lat) => {
    const [gLng, gLat] = wgs84ToGcj02(lng, lat);
    return [gLat, gLng];
  },
  fromMap: (lat, lng) => gcj02ToWgs84(lng, lat),
};

/** The conversion for tiles on `datum`; the bundled outline is WGS-84. */
export function datumFor(datum: MapTileDatum, tiled: boolean): Datum {
  return tiled && datum === 'gcj02' ? GCJ02 : WGS84;
}
