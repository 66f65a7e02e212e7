import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries from 'world-atlas/countries-110m.json';

/**
 * The offline base map: Natural Earth's 1:110m country outlines (public domain) shipped with the
 * console, as GeoJSON. Imported lazily by the device map, so only that map's chunk carries it.
 */
const topology = countries as unknown as Topology<{ countries: GeometryCollection }>;
export const worldOutline = feature(topology, topology.objects.countries);
