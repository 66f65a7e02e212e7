import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SaxesParser } from 'saxes';
import { sql } from 'drizzle-orm';
import { EARTH_RADIUS_M, LOCUS_MAX_RANGE_DAYS } from '@iot/contract';
import { devicePositions } from '../src/db/schema/index.js';
import { addTestDevice, bearer, buildTestApp, type TestApp } from './helpers.js';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Meters of 0.01° along a great circle (a meridian, or the equator) on the console's sphere. */
const HUNDREDTH = (EARTH_RADIUS_M * Math.PI) / 180 / 100;

interface Fix {
  t: number;
  lng: number;
  lat: number;
  speed?: number | null;
  direction?: number | null;
  pdop?: number | null;
  satellites?: number | null;
}

interface Locus {
  read: number;
  kept: number;
  truncated: boolean;
  toleranceM: number;
  points: { t: number[]; lng: number[]; lat: number[]; speed: (number | null)[]; direction: (number | null)[]; pdop: (number | null)[]; satellites: (number | null)[]; distance: number[] };
  totals: { distanceM: number; durationS: number; maxSpeedKmh: number | null; avgSpeedKmh: number | null; stoppedS: number; stops: number };
  stops: { from: string; to: string; durationS: number; lng: number; lat: number }[];
}

/** /device/locus, /device/locusrange and the track export over a real database. */
describe('tracks (/device/locus)', () => {
  let t: TestApp;
  let token: string;
  let outsider: string;
  let typeId: number;
  let seq = 0;

  const get = async (url: string, who = token) => (await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(who) })).json();
  const iso = (ms: number) => new Date(ms).toISOString();
  const locus = async (id: number, from: number, to: number, extra = '') => {
    const r = await get(`/device/locus?id=${id}&from=${iso(from)}&to=${iso(to)}${extra}`);
    expect(r.code, JSON.stringify(r).slice(0, 300)).toBe(20000);
    return r.data as Locus;
  };
  const newDevice = async () => (await addTestDevice(t.app, token, typeId, `TRK-${++seq}`)).id;
  const insert = async (deviceId: number, fixes: Fix[]) => {
    for (let i = 0; i < fixes.length; i += 4000) {
      await t.database.db.insert(devicePositions).values(
        fixes.slice(i, i + 4000).map((f) => ({
          deviceId,
          ts: new Date(f.t),
          lng: f.lng,
          lat: f.lat,
          speed: f.speed ?? null,
          direction: f.direction ?? null,
          pdop: f.pdop ?? null,
          satellites: f.satellites ?? null,
        })),
      );
    }
  };

  beforeAll(async () => {
    t = await buildTestApp();
    token = await t.login();
    typeId = (await get('/devicetype/typeoptionslist')).data.find((x: { code: string }) => x.code === 'BMU').id;
    // An operator of another branch: it holds device:track but not the admin's devices.
    await t.createUser({ username: 'track-op', password: 'track-pass-1', role: 'BATTERYMANAGEMENT' });
    outsider = await t.login('track-op', 'track-pass-1');
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the fixes of [from, to) in time order with every field', async () => {
    const id = await newDevice();
    const t0 = Date.UTC(2026, 5, 1, 8);
    // Stored out of order; the one at `to` is outside (ranges end exclusive), one before `from` too.
    await insert(id, [
      { t: t0 + 2 * MIN, lng: 116.402, lat: 39.91, speed: 30, direction: 90, pdop: 1.1, satellites: 9 },
      { t: t0, lng: 116.4, lat: 39.9, speed: 0, direction: 0, pdop: 0.9, satellites: 11 },
      { t: t0 + 10 * MIN, lng: 116.5, lat: 39.95 },
      { t: t0 + MIN, lng: 116.401, lat: 39.905, speed: null, direction: 45, pdop: null, satellites: 7 },
      { t: t0 - 1, lng: 0, lat: 0 },
    ]);
    const r = await locus(id, t0, t0 + 10 * MIN);
    expect(r.read).toBe(3);
    expect(r.kept).toBe(3);
    expect(r.toleranceM).toBe(0);
    expect(r.points.t).toEqual([t0, t0 + MIN, t0 + 2 * MIN]);
    expect(r.points.lng).toEqual([116.4, 116.401, 116.402]);
    expect(r.points.lat).toEqual([39.9, 39.905, 39.91]);
    expect(r.points.speed).toEqual([0, null, 30]);
    expect(r.points.direction).toEqual([0, 45, 90]);
    expect(r.points.pdop).toEqual([0.9, null, 1.1]);
    expect(r.points.satellites).toEqual([11, 7, 9]);
    expect(r.points.distance[0]).toBe(0);
    expect(r.points.distance[1]).toBeGreaterThan(0);
    expect(r.points.distance[2]).toBe(r.totals.distanceM);

    // An empty range: no fixes, zero totals.
    const empty = await locus(id, t0 + HOUR, t0 + 2 * HOUR);
    expect(empty).toMatchObject({ read: 0, kept: 0, totals: { distanceM: 0, durationS: 0, maxSpeedKmh: null, avgSpeedKmh: null, stops: 0 }, stops: [] });
    expect(empty.points.t).toEqual([]);
  });

  it('keeps a fix’s time to the microsecond, and its values with it', async () => {
    const id = await newDevice();
    await t.database.db.execute(sql`insert into device_positions (device_id, ts, lng, lat, speed, direction, pdop, satellites)
      values (${id}, '2026-06-01T08:00:00.123456Z', 1, 2, 3, 45, 1.5, 7), (${id}, '2026-06-01T08:00:00.123457Z', 1.001, 2, 4, 46, 1.6, 8)`);
    const r = await locus(id, Date.UTC(2026, 5, 1, 8), Date.UTC(2026, 5, 1, 9));
    expect(r.points.t).toEqual([Date.UTC(2026, 5, 1, 8) + 123.456, Date.UTC(2026, 5, 1, 8) + 123.457]);
    expect(r.points.direction).toEqual([45, 46]);
    expect(r.points.satellites).toEqual([7, 8]);
  });

  it('bounds the range and names the wrong field', async () => {
    const id = await newDevice();
    const t0 = Date.UTC(2026, 5, 1);
    const bad = async (q: string) => {
      const r = await get(`/device/locus?${q}`);
      expect(r.code, JSON.stringify(r)).toBe(40000);
      return r.data.field as string;
    };
    expect(await bad(`id=${id}&from=${iso(t0)}&to=${iso(t0)}`)).toBe('to');
    expect(await bad(`id=${id}&from=${iso(t0 + DAY)}&to=${iso(t0)}`)).toBe('to');
    expect(await bad(`id=${id}&from=${iso(t0)}&to=${iso(t0 + (LOCUS_MAX_RANGE_DAYS + 1) * DAY)}`)).toBe('to');
    expect(await bad(`id=${id}&from=yesterday&to=${iso(t0)}`)).toBe('from');
    expect(await bad(`id=0&from=${iso(t0)}&to=${iso(t0 + DAY)}`)).toBe('id');
    expect(await bad(`id=${id}&from=${iso(t0)}&to=${iso(t0 + DAY)}&maxPoints=5`)).toBe('maxPoints');
    // The longest range allowed is answered.
    expect((await get(`/device/locus?id=${id}&from=${iso(t0)}&to=${iso(t0 + LOCUS_MAX_RANGE_DAYS * DAY)}`)).code).toBe(20000);
  });

  it('refuses a device the caller does not see, as if it did not exist', async () => {
    const id = await newDevice();
    const t0 = Date.UTC(2026, 5, 1);
    await insert(id, [{ t: t0, lng: 1, lat: 1 }]);
    const q = `id=${id}&from=${iso(t0)}&to=${iso(t0 + DAY)}`;
    expect((await get(`/device/locus?${q}`, outsider)).code).toBe(40400);
    expect((await get(`/device/locusrange?id=${id}`, outsider)).code).toBe(40400);
    const file = await t.app.inject({ method: 'GET', url: `/api/v1/device/locus/export?${q}&format=gpx`, headers: bearer(outsider) });
    expect(file.json().code).toBe(40400);
    expect(file.body).not.toContain('trkpt');
    // Nor a device that does not exist.
    expect((await get(`/device/locus?id=999999&from=${iso(t0)}&to=${iso(t0 + DAY)}`)).code).toBe(40400);
  });

  it('measures distance on the sphere at several latitudes and across the antimeridian', async () => {
    const t0 = Date.UTC(2026, 5, 2);
    // Due north 0.01° at a time (a meridian: the same length at every latitude), one fix a minute.
    for (const lat of [-60, 0, 45, 89.5]) {
      const id = await newDevice();
      await insert(id, [0, 1, 2, 3].map((k) => ({ t: t0 + k * MIN, lng: 30, lat: lat + k * 0.01, speed: 60 + k })));
      const r = await locus(id, t0, t0 + HOUR);
      expect(r.totals.distanceM).toBeCloseTo(3 * HUNDREDTH, 0);
      expect(r.points.distance[1]).toBeCloseTo(HUNDREDTH, 0);
      expect(r.totals.durationS).toBe(180);
      // 3 × 1,111.95 m in 3 minutes: 66.72 km/h; the fastest reported 63.
      expect(r.totals.avgSpeedKmh).toBeCloseTo((3 * HUNDREDTH) / 180 * 3.6, 1);
      expect(r.totals.maxSpeedKmh).toBe(63);
    }
    // Due east along the parallel at 60°: 0.01° of longitude is half as long as on the equator
    // (on the sphere, 2R·asin(cos φ · sin(Δλ/2)), which a hand calculation gives as 555.97 m).
    const east = await newDevice();
    await insert(east, [0, 1].map((k) => ({ t: t0 + k * MIN, lng: 10 + k * 0.01, lat: 60 })));
    const expected = 2 * EARTH_RADIUS_M * Math.asin(Math.cos(Math.PI / 3) * Math.sin((0.01 * Math.PI) / 180 / 2));
    expect(expected).toBeCloseTo(555.97, 1);
    expect((await locus(east, t0, t0 + HOUR)).totals.distanceM).toBeCloseTo(expected, 0);
    // Across the antimeridian on the equator: 179.995° E to 179.995° W is 0.01°, not a trip round the world.
    const dateline = await newDevice();
    await insert(dateline, [
      { t: t0, lng: 179.995, lat: 0 },
      { t: t0 + MIN, lng: -179.995, lat: 0 },
      { t: t0 + 2 * MIN, lng: -179.985, lat: 0 },
    ]);
    const across = await locus(dateline, t0, t0 + HOUR);
    expect(across.totals.distanceM).toBeCloseTo(2 * HUNDREDTH, 0);
    // No reported speed: the fastest leg's average.
    expect(across.totals.maxSpeedKmh).toBeCloseTo((HUNDREDTH / 60) * 3.6, 1);
  });

  it('finds stops: still for 3 minutes or more, and a parked device that sent nothing', async () => {
    const id = await newDevice();
    const t0 = Date.UTC(2026, 5, 3, 6);
    const fixes: Fix[] = [];
    let lng = 100;
    let t1 = t0;
    const drive = (n: number) => {
      for (let i = 0; i < n; i++, t1 += 10_000) {
        lng += 0.001; // 111 m in 10 s: 40 km/h
        fixes.push({ t: t1, lng, lat: 0, speed: 40 });
      }
    };
    const still = (seconds: number) => {
      for (let s = 0; s < seconds; s += 10, t1 += 10_000) fixes.push({ t: t1, lng, lat: 0, speed: 0 });
    };
    drive(10);
    const firstStopFrom = t1 - 10_000; // the arrival fix: the leg after it is still
    still(310);
    const firstStopTo = t1 - 10_000;
    drive(10);
    still(120); // two minutes: not a stop
    drive(10);
    const parkedFrom = t1 - 10_000;
    const parkedLng = lng;
    // Parked an hour without a fix, then off again 5 m away.
    t1 = parkedFrom + HOUR;
    fixes.push({ t: t1, lng: lng + 0.000045, lat: 0, speed: 35 });
    lng += 0.000045;
    t1 += 10_000;
    drive(10);
    await insert(id, fixes);
    const r = await locus(id, t0, t0 + DAY);
    expect(r.stops.map((s) => [s.from, s.durationS])).toEqual([
      [iso(firstStopFrom), (firstStopTo - firstStopFrom) / 1000],
      [iso(parkedFrom), 3600],
    ]);
    expect(r.totals.stops).toBe(2);
    expect(r.totals.stoppedS).toBe((firstStopTo - firstStopFrom) / 1000 + 3600);
    expect(r.stops[1]!.lng).toBe(parkedLng);
  });

  it('simplifies long tracks to the budget, keeping start, end, stops and the shape within the tolerance', async () => {
    const id = await newDevice();
    const t0 = Date.UTC(2026, 5, 4);
    const fixes: Fix[] = [];
    // A winding road of 20,000 fixes (10 s apart), with a 5-minute stop in the middle.
    for (let i = 0; i < 20_000; i++) {
      const k = i < 10_000 ? i : i > 10_030 ? i - 30 : 10_000;
      // 40 to 80 m every 10 s (15–28 km/h) along a road that winds every few kilometers.
      fixes.push({ t: t0 + i * 10_000, lng: 8.5 + k * 0.0008 + 0.01 * Math.sin(k / 40), lat: 47.3 + 0.02 * Math.sin(k / 170), speed: i >= 10_000 && i <= 10_030 ? 0 : 25 });
    }
    await insert(id, fixes);
    const full = await locus(id, t0, t0 + 4 * DAY, '&maxPoints=20000');
    expect(full.kept).toBe(20_000);
    expect(full.toleranceM).toBe(0);
    const r = await locus(id, t0, t0 + 4 * DAY, '&maxPoints=500');
    expect(r.read).toBe(20_000);
    expect(r.kept).toBeLessThanOrEqual(500);
    expect(r.kept).toBe(r.points.t.length);
    expect(r.kept).toBeGreaterThan(400);
    expect(r.toleranceM).toBeGreaterThan(0);
    expect(r.toleranceM).toBeLessThan(100);
    // Start, end and the stop's ends are kept; totals are the full track's.
    expect(r.points.t[0]).toBe(t0);
    expect(r.points.t.at(-1)).toBe(t0 + 19_999 * 10_000);
    expect(r.stops).toHaveLength(1);
    expect(r.points.t).toContain(Date.parse(r.stops[0]!.from));
    expect(r.points.t).toContain(Date.parse(r.stops[0]!.to));
    expect(r.totals).toEqual(full.totals);
    expect(r.points.distance.at(-1)).toBe(full.totals.distanceM);
    // Every fix read lies within the tolerance of the simplified line: its distance to the kept
    // segment around it, measured on the sphere by sampling that segment finely.
    let k = 0;
    let worst = 0;
    for (const f of fixes) {
      while (r.points.t[k + 1]! < f.t) k++;
      const [a, b] = [k, Math.min(k + 1, r.kept - 1)];
      let best = Infinity;
      for (let s = 0; s <= 400; s++) {
        const u = s / 400;
        const lng = r.points.lng[a]! + u * (r.points.lng[b]! - r.points.lng[a]!);
        const lat = r.points.lat[a]! + u * (r.points.lat[b]! - r.points.lat[a]!);
        best = Math.min(best, haversine(f.lng, f.lat, lng, lat));
      }
      worst = Math.max(worst, best);
    }
    expect(worst).toBeLessThanOrEqual(r.toleranceM * 1.01 + 0.5);
    // And the tolerance is what it takes: the worst fix is close to it.
    expect(worst).toBeGreaterThan(r.toleranceM * 0.5);
  });

  it('a straight line across the antimeridian simplifies to its two ends', async () => {
    const id = await newDevice();
    const t0 = Date.UTC(2026, 5, 6);
    await insert(id, Array.from({ length: 1000 }, (_, i) => ({ t: t0 + i * 10_000, lng: ((179.9 + i * 0.0002 + 180) % 360) - 180, lat: 10, speed: 50 })));
    const r = await locus(id, t0, t0 + DAY, '&maxPoints=100');
    expect(r.kept).toBe(2);
    expect(r.toleranceM).toBeLessThanOrEqual(1);
    expect(r.totals.distanceM).toBeCloseTo(haversine(179.9, 10, -179.9002, 10), -1);
  });

  it('exports CSV and GPX with content types and file names, full or simplified', async () => {
    const { id, sn } = await addTestDevice(t.app, token, typeId, `TRK:EXP-${++seq}`);
    const t0 = Date.UTC(2026, 5, 7, 12);
    await insert(id, Array.from({ length: 300 }, (_, i) => ({ t: t0 + i * 10_000, lng: 2 + i * 0.0003, lat: 41 + 0.001 * Math.sin(i / 9), speed: 36, direction: 80, pdop: 1.3, satellites: 8 })));
    const q = `id=${id}&from=${iso(t0)}&to=${iso(t0 + DAY)}`;
    const file = (extra: string) => t.app.inject({ method: 'GET', url: `/api/v1/device/locus/export?${q}${extra}`, headers: bearer(token) });
    const safe = sn.replace(':', '_');

    const csv = await file('&format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="track-${safe}-2026-06-07.csv"`);
    const lines = csv.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('time,lng,lat,speed_kmh,direction_deg,pdop,satellites,distance_m');
    expect(lines).toHaveLength(301);
    expect(lines[1]).toBe(`${iso(t0)},2,41,36,80,1.3,8,0`);

    const gpx = await file('&format=gpx');
    expect(gpx.headers['content-type']).toBe('application/gpx+xml; charset=utf-8');
    expect(gpx.headers['content-disposition']).toBe(`attachment; filename="track-${safe}-2026-06-07.gpx"`);
    const parsed = parseXml(gpx.body);
    expect(parsed.root).toBe('gpx');
    expect(parsed.count.trkpt).toBe(300);
    expect(parsed.count.trkseg).toBe(1);
    expect(parsed.first.trkpt).toEqual({ lat: '41', lon: '2' });
    expect(gpx.body).toContain(`<time>${iso(t0)}</time><sat>8</sat><pdop>1.3</pdop>`);
    expect(gpx.body).toContain('<gpxtpx:speed>10</gpxtpx:speed>');

    // Simplified: the points the track answer keeps for the same budget.
    const kept = (await locus(id, t0, t0 + DAY, '&maxPoints=100')).kept;
    const small = await file('&format=gpx&resolution=simplified&maxPoints=100');
    expect(small.headers['content-disposition']).toContain('-simplified.gpx');
    expect(parseXml(small.body).count.trkpt).toBe(kept);
    expect(kept).toBeLessThanOrEqual(100);
  });

  it('opens on the last day that has fixes', async () => {
    const id = await newDevice();
    const none = (await get(`/device/locusrange?id=${id}`)).data;
    expect(none.basis).toBe('none');
    const last = Date.now() - 3 * DAY;
    await insert(id, [
      { t: last - 2 * DAY, lng: 1, lat: 1 },
      { t: last - 5 * HOUR, lng: 1, lat: 1 },
      { t: last, lng: 1, lat: 1 },
    ]);
    expect((await get(`/device/locusrange?id=${id}`)).data).toEqual({ from: iso(last - 5 * HOUR), to: iso(last + 1000), basis: 'past' });
    await insert(id, [{ t: Date.now() - HOUR, lng: 1, lat: 1 }]);
    const recent = (await get(`/device/locusrange?id=${id}`)).data;
    expect(recent.basis).toBe('recent');
    expect(Date.parse(recent.to)).toBeGreaterThanOrEqual(Date.now() - 5000);
  });

  it('shows fixes a device sent over HTTP', async () => {
    const d = await addTestDevice(t.app, token, typeId, `TRK-HTTP-${++seq}`);
    const auth = { authorization: `Basic ${Buffer.from(`${d.sn}:${d.secret}`).toString('base64')}` };
    const t0 = Date.now() - 10 * MIN;
    for (const [i, lng] of [116.39, 116.391, 116.392].entries()) {
      const r = await t.app.inject({ method: 'POST', url: '/api/v1/ingest/gps', headers: auth, payload: { ts: t0 + i * 10_000, lng, lat: 39.9, speed: 36, direction: 90, pdop: 1, satellites: 10 } });
      expect(r.json().code, r.body).toBe(20000);
    }
    const r = await locus(d.id, t0 - MIN, Date.now() + MIN);
    expect(r.points.lng).toEqual([116.39, 116.391, 116.392]);
    expect(r.points.speed).toEqual([36, 36, 36]);
    expect(r.totals.distanceM).toBeGreaterThan(150);
  });
});

function haversine(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

/** Parses XML strictly (a malformed document throws): the root, element counts, the first element's attributes. */
function parseXml(xml: string) {
  const parser = new SaxesParser();
  const count: Record<string, number> = {};
  const first: Record<string, Record<string, string>> = {};
  let root = '';
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    if (!root) root = tag.name;
    count[tag.name] = (count[tag.name] ?? 0) + 1;
    first[tag.name] ??= Object.fromEntries(Object.entries(tag.attributes).map(([k, v]) => [k, String(v)]));
  });
  parser.write(xml).close();
  return { root, count, first };
}
