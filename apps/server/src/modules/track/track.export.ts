import { writeCsv } from '../../lib/sheet.js';
import type { Fixes } from './track.math.js';

/** The fixes to write: `keep` indexes into `fixes` (every fix, or the simplified ones). */
export interface TrackToWrite {
  fixes: Fixes;
  /** Cumulative meters per fix. */
  distance: Float64Array;
  keep: Uint32Array;
}

/** Column names of the CSV (stable, in English, as the other exports' data columns are keys). */
export const TRACK_CSV_HEADER = ['time', 'lng', 'lat', 'speed_kmh', 'direction_deg', 'pdop', 'satellites', 'distance_m'];

const value = (x: number) => (Number.isNaN(x) ? '' : x);
const iso = (ms: number) => new Date(ms).toISOString();

/** One row per fix, UTF-8 with a BOM like every CSV of the console (lib/sheet.ts writeCsv). */
export function trackCsv({ fixes: f, distance, keep }: TrackToWrite): Promise<Buffer> {
  const rows: unknown[][] = [TRACK_CSV_HEADER];
  for (const i of keep) {
    rows.push([iso(f.t[i]!), f.lng[i], f.lat[i], value(f.speed[i]!), value(f.direction[i]!), value(f.pdop[i]!), value(f.satellites[i]!), Math.round(distance[i]! * 10) / 10]);
  }
  return writeCsv(rows);
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Fixes written between yields to the event loop: the server keeps answering others meanwhile. */
const CHUNK = 5000;

/**
 * GPX 1.1: one track, one segment, a `trkpt` per fix with its time, satellites and PDOP (GPX's
 * own elements, in the schema's order) and speed (m/s) and course in Garmin's TrackPointExtension
 * v2, which map programs read.
 */
export async function trackGpx({ fixes: f, keep }: TrackToWrite, name: string): Promise<Buffer> {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<gpx version="1.1" creator="IoT device management console" xmlns="http://www.topografix.com/GPX/1/1" ' +
      'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
      'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">\n' +
      `<metadata><name>${escapeXml(name)}</name></metadata>\n<trk><name>${escapeXml(name)}</name><trkseg>\n`,
  ];
  for (let k = 0; k < keep.length; k++) {
    if (k > 0 && k % CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
    const i = keep[k]!;
    let pt = `<trkpt lat="${f.lat[i]}" lon="${f.lng[i]}"><time>${iso(f.t[i]!)}</time>`;
    if (!Number.isNaN(f.satellites[i]!)) pt += `<sat>${f.satellites[i]}</sat>`;
    if (!Number.isNaN(f.pdop[i]!)) pt += `<pdop>${f.pdop[i]}</pdop>`;
    const speed = f.speed[i]!;
    const course = f.direction[i]!;
    if (!Number.isNaN(speed) || !Number.isNaN(course)) {
      pt += '<extensions><gpxtpx:TrackPointExtension>';
      if (!Number.isNaN(speed)) pt += `<gpxtpx:speed>${Math.round((speed / 3.6) * 1000) / 1000}</gpxtpx:speed>`;
      if (!Number.isNaN(course)) pt += `<gpxtpx:course>${((course % 360) + 360) % 360}</gpxtpx:course>`;
      pt += '</gpxtpx:TrackPointExtension></extensions>';
    }
    parts.push(`${pt}</trkpt>\n`);
  }
  parts.push('</trkseg></trk>\n</gpx>\n');
  return Buffer.from(parts.join(''));
}
