import { describe, expect, it } from 'vitest';
import {
  BMU_IDS,
  BmuModel,
  BmuState,
  CELLS,
  CELL_OVER_TEMP,
  CELL_OVER_VOLTAGE,
  cellTempId,
  cellVoltageId,
  ocv,
  type Uplink,
} from './bmu.js';
import { distance, positionOn, type LngLat } from './route.js';
import { createRng } from './rng.js';

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

type Values = Record<string, number | string | boolean>;

/** Runs a device for `hours` of simulated time with a message every `everyS` simulated seconds. */
function run(opts: { sn?: string; hours: number; everyS?: number; faultsPerHour?: number; track?: boolean }) {
  const everyS = opts.everyS ?? 30;
  const model = new BmuModel({ sn: opts.sn ?? 'SIM-000001', now: T0, faultsPerHour: opts.faultsPerHour, track: opts.track });
  const out: { at: number; msg: Uplink; state: BmuState }[] = [];
  for (let t = everyS * 1000; t <= opts.hours * 3_600_000; t += everyS * 1000) {
    const msg = model.next(T0 + t);
    out.push({ at: T0 + t, msg, state: model.state });
  }
  return { model, out };
}

const telemetryOf = (out: { msg: Uplink }[]) =>
  out.flatMap((o) => (o.msg.kind === 'telemetry' ? [o.msg.body.values as Values] : []));

describe('BMU model', () => {
  it('is deterministic for a seed (the SN) and differs between devices', () => {
    const a = run({ sn: 'SIM-000001', hours: 1 }).out.map((o) => o.msg);
    const b = run({ sn: 'SIM-000001', hours: 1 }).out.map((o) => o.msg);
    const c = run({ sn: 'SIM-000002', hours: 1 }).out.map((o) => o.msg);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('sends every parameter of the battery type in telemetry', () => {
    const [values] = telemetryOf(run({ hours: 0.1 }).out);
    const ids = Object.keys(values!);
    for (const id of Object.values(BMU_IDS)) expect(ids).toContain(id);
    for (let i = 1; i <= CELLS; i++) expect(ids).toContain(cellVoltageId(i));
    for (let i = 1; i <= 4; i++) expect(ids).toContain(cellTempId(i));
    expect(values![BMU_IDS.cellCount]).toBe(16);
  });

  it('has 16 LiFePO4 cells that add up to the pack voltage', () => {
    const problems: unknown[] = [];
    for (const sn of ['SIM-000001', 'SIM-000007', 'SIM-000042']) {
      for (const v of telemetryOf(run({ sn, hours: 24, everyS: 60, faultsPerHour: 0 }).out)) {
        const cells = Array.from({ length: CELLS }, (_, i) => v[cellVoltageId(i + 1)] as number);
        const sum = cells.reduce((a, b) => a + b, 0);
        const [max, min] = [Math.max(...cells), Math.min(...cells)];
        const ok =
          Math.abs((v[BMU_IDS.packVoltage] as number) - sum) <= 0.005 + 1e-9 &&
          min >= 2.9 &&
          max < CELL_OVER_VOLTAGE &&
          v[BMU_IDS.maxCellVoltage] === max &&
          v[BMU_IDS.minCellVoltage] === min &&
          // Imbalance of a healthy pack: tens of millivolts at most.
          max - min < 0.06;
        if (!ok) problems.push({ sn, pack: v[BMU_IDS.packVoltage], cells });
      }
    }
    expect(problems).toEqual([]);
    // The chemistry's plateau: ~3.2–3.4 V over most of the charge.
    expect(ocv(20)).toBeGreaterThan(3.2);
    expect(ocv(95)).toBeLessThan(3.4);
  });

  it('cycles idle → charging → idle → discharging, with SOC and current following the state', () => {
    const { out } = run({ hours: 48, everyS: 30, faultsPerHour: 0 });
    const seen = new Set(out.map((o) => o.state));
    expect(seen).toEqual(new Set([BmuState.idle, BmuState.charging, BmuState.discharging]));
    const t = out.flatMap((o) => (o.msg.kind === 'telemetry' ? [{ v: o.msg.body.values as Values, state: o.state }] : []));
    let transitions = 0;
    for (let i = 1; i < t.length; i++) {
      const [prev, cur] = [t[i - 1]!, t[i]!];
      const soc = cur.v[BMU_IDS.soc] as number;
      const current = cur.v[BMU_IDS.current] as number;
      expect(soc).toBeGreaterThanOrEqual(0);
      expect(soc).toBeLessThanOrEqual(100);
      expect(cur.v[BMU_IDS.state]).toBe(String(cur.state));
      if (cur.state === BmuState.charging) expect(current).toBeGreaterThan(0);
      if (cur.state === BmuState.discharging) expect(current).toBeLessThan(0);
      if (cur.state === BmuState.idle) expect(Math.abs(current)).toBeLessThan(1);
      if (prev.state === cur.state) {
        if (cur.state === BmuState.charging) expect(soc).toBeGreaterThanOrEqual(prev.v[BMU_IDS.soc] as number);
        if (cur.state === BmuState.discharging) expect(soc).toBeLessThanOrEqual(prev.v[BMU_IDS.soc] as number);
      } else transitions++;
    }
    expect(transitions).toBeGreaterThanOrEqual(4);
    const socs = t.map((x) => x.v[BMU_IDS.soc] as number);
    expect(Math.max(...socs) - Math.min(...socs)).toBeGreaterThan(40);
  });

  it('counts energy up, ages slowly and warms with the current', () => {
    const t = telemetryOf(run({ hours: 24, everyS: 60, faultsPerHour: 0 }).out);
    for (const id of [BMU_IDS.totalCharge, BMU_IDS.totalDischarge, BMU_IDS.energyUsed]) {
      const series = t.map((v) => v[id] as number);
      for (let i = 1; i < series.length; i++) expect(series[i]!).toBeGreaterThanOrEqual(series[i - 1]!);
      expect(series.at(-1)!).toBeGreaterThan(series[0]!);
    }
    const soh = t.map((v) => v[BMU_IDS.soh] as number);
    expect(soh[0]! - soh.at(-1)!).toBeGreaterThanOrEqual(0);
    expect(soh[0]! - soh.at(-1)!).toBeLessThan(0.5);
    // Hotter cells at high current than at rest (relative to the air).
    const rise = (v: Values) => (v[cellTempId(1)] as number) - (v[BMU_IDS.ambientTemp] as number);
    const busy = t.filter((v) => Math.abs(v[BMU_IDS.current] as number) > 20).map(rise);
    const rest = t.filter((v) => Math.abs(v[BMU_IDS.current] as number) < 1).map(rise);
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(busy.length).toBeGreaterThan(0);
    expect(avg(busy)).toBeGreaterThan(avg(rest));
  });

  it('trips faults that it reports as alarms (flag 1) and recovers from (flag 0)', () => {
    const { out } = run({ hours: 48, everyS: 20, faultsPerHour: 2 });
    const alarms = out.flatMap((o) => (o.msg.kind === 'alarm' ? [o.msg.body] : []));
    expect(alarms.length).toBeGreaterThanOrEqual(4);
    let open: (typeof alarms)[number] | undefined;
    for (const a of alarms) {
      if (open) {
        expect(a).toMatchObject({ id: open.id, flag: 0 });
        open = undefined;
      } else {
        expect(a.flag).toBe(1);
        const isCell = /^01117\d{3}$/.test(a.id);
        expect(isCell || /^01119\d{3}$/.test(a.id)).toBe(true);
        expect(a.value as number).toBeGreaterThan(isCell ? CELL_OVER_VOLTAGE : CELL_OVER_TEMP);
        open = a;
      }
    }
    // While the fault lasts the state is 3 and no current flows; the faulty reading is in telemetry.
    const during = out.filter((o) => o.state === BmuState.fault && o.msg.kind === 'telemetry');
    expect(during.length).toBeGreaterThan(0);
    for (const o of during) {
      const v = (o.msg.body as { values: Values }).values;
      expect(v[BMU_IDS.current]).toBe(0);
      expect(v[BMU_IDS.state]).toBe('3');
      const tripped = (v[BMU_IDS.maxCellVoltage] as number) > CELL_OVER_VOLTAGE || [1, 2, 3, 4].some((i) => (v[cellTempId(i)] as number) > CELL_OVER_TEMP);
      expect(tripped).toBe(true);
    }
  });

  it('drives along its route while discharging and stays parked otherwise', () => {
    const { model, out } = run({ hours: 24, everyS: 10, faultsPerHour: 0 });
    const fixes = out.flatMap((o) => (o.msg.kind === 'gps' ? [{ at: o.at, fix: o.msg.body, state: o.state }] : []));
    expect(fixes.length).toBeGreaterThan(10);
    const centre = model.centre;
    for (let i = 0; i < fixes.length; i++) {
      const { fix, state } = fixes[i]!;
      const p: LngLat = [fix.lng, fix.lat];
      expect(distance(p, centre)).toBeLessThan(8000);
      if (state !== BmuState.discharging) expect(fix.speed).toBe(0);
      else expect(fix.speed!).toBeGreaterThan(0);
      if (i > 0) {
        const prev = fixes[i - 1]!;
        const seconds = (fixes[i]!.at - prev.at) / 1000;
        // Never faster than the fastest drive (17 m/s) in a straight line.
        expect(distance([prev.fix.lng, prev.fix.lat], p)).toBeLessThanOrEqual(17 * seconds + 1);
      }
    }
    // Routes stay on the street grid: every leg runs along one of two perpendicular directions.
    const r = model.route;
    expect(r.points[0]).toEqual(r.points.at(-1));
    for (let i = 1; i < r.points.length; i++) expect(r.legs[i - 1]!).toBeGreaterThan(0);
    expect(positionOn(r, r.length / 2).at).not.toEqual(r.points[0]);
  });

  it('sends no GPS fix when the type records no track', () => {
    const { out } = run({ hours: 6, track: false });
    expect(out.some((o) => o.msg.kind === 'gps')).toBe(false);
  });

  it('answers setParams on the writable switches and refuses what it does not know', () => {
    const now = T0 + 60_000;
    const m = new BmuModel({ sn: 'SIM-000003', now: T0, faultsPerHour: 0 });
    expect(m.command({ id: 'c1', kind: 'setParams', payload: { [BMU_IDS.chargeSwitch]: false, [BMU_IDS.dischargeSwitch]: 0 }, expiresAt: now + 60_000 }, now)).toEqual({ id: 'c1', result: 'ok' });
    expect(m.snapshot).toMatchObject({ chargeSwitch: false, dischargeSwitch: false, state: BmuState.idle });
    const v = m.telemetry(now + 1000).values;
    expect(v[BMU_IDS.chargeSwitch]).toBe(false);
    expect(v[BMU_IDS.dischargeSwitch]).toBe(false);
    // Both switches off: it rests, whatever its charge.
    m.advance(now + 6 * 3_600_000);
    expect(m.state).toBe(BmuState.idle);
    expect(m.command({ id: 'c2', kind: 'setParams', payload: { [BMU_IDS.chargeSwitch]: true }, expiresAt: now + 7 * 3_600_000 }, now + 6 * 3_600_000)).toEqual({ id: 'c2', result: 'ok' });

    expect(m.command({ id: 'c3', kind: 'setParams', payload: { [BMU_IDS.packVoltage]: 50 }, expiresAt: Infinity }, now)).toMatchObject({ result: 'error', message: 'not writable: 01111001' });
    expect(m.command({ id: 'c4', kind: 'setParams', payload: { [BMU_IDS.chargeSwitch]: 'maybe' } }, now)).toMatchObject({ result: 'error' });
    expect(m.command({ id: 'c5', kind: 'upgrade', payload: {} }, now)).toEqual({ id: 'c5', result: 'error', message: 'unknown command kind: upgrade' });
    expect(m.command({ id: 'c6', kind: 'setParams', payload: { [BMU_IDS.chargeSwitch]: true }, expiresAt: now - 1 }, now)).toEqual({ id: 'c6', result: 'error', message: 'expired' });
    expect(m.command({ kind: 'setParams' }, now)).toBeUndefined();
    expect(m.command('nonsense', now)).toBeUndefined();
  });

  it('speeds up with timeScale', () => {
    const slow = new BmuModel({ sn: 'SIM-000004', now: T0, faultsPerHour: 0 });
    const fast = new BmuModel({ sn: 'SIM-000004', now: T0, faultsPerHour: 0, timeScale: 60 });
    slow.advance(T0 + 60 * 60_000);
    fast.advance(T0 + 60_000);
    expect(fast.snapshot.soc).toBeCloseTo(slow.snapshot.soc, 0);
  });

  it('seeded random numbers are uniform enough', () => {
    const rng = createRng(42);
    const xs = Array.from({ length: 10_000 }, () => rng.next());
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
  });
});
