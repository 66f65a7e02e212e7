import { distanceMeters } from '@iot/contract';
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
  SIM_FIRMWARE,
  UPGRADE_SECONDS,
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

  it('keeps geo-fences: set, replaced, re-locked, removed; an unknown fence cannot be re-locked', () => {
    const now = T0 + 60_000;
    const m = new BmuModel({ sn: 'SIM-000005', now: T0, faultsPerHour: 0 });
    const fence = { fenceId: 'depot-1', lng: 116.397, lat: 39.909, radius: 500, action: 'lock' };
    expect(m.command({ id: 'f1', kind: 'fenceSet', payload: fence, expiresAt: now + 60_000 }, now)).toEqual({ id: 'f1', result: 'ok' });
    expect(m.command({ id: 'f2', kind: 'fenceSet', payload: { ...fence, fenceId: 'yard', action: 'alarm' }, expiresAt: now + 60_000 }, now)).toEqual({ id: 'f2', result: 'ok' });
    expect(m.command({ id: 'f3', kind: 'fenceSet', payload: { ...fence, radius: 800 }, expiresAt: now + 60_000 }, now)).toEqual({ id: 'f3', result: 'ok' });
    expect(m.snapshot.fences).toEqual([
      { ...fence, radius: 800, armed: true },
      { ...fence, fenceId: 'yard', action: 'alarm', armed: true },
    ]);
    expect(m.command({ id: 'f4', kind: 'fenceRelock', payload: { fenceId: 'depot-1' }, expiresAt: now + 60_000 }, now)).toEqual({ id: 'f4', result: 'ok' });
    expect(m.command({ id: 'f5', kind: 'fenceClose', payload: { fenceId: 'yard' }, expiresAt: now + 60_000 }, now)).toEqual({ id: 'f5', result: 'ok' });
    // Closing what is not there is done already.
    expect(m.command({ id: 'f6', kind: 'fenceClose', payload: { fenceId: 'yard' }, expiresAt: now + 60_000 }, now)).toEqual({ id: 'f6', result: 'ok' });
    expect(m.command({ id: 'f7', kind: 'fenceRelock', payload: { fenceId: 'yard' }, expiresAt: now + 60_000 }, now)).toEqual({ id: 'f7', result: 'error', message: 'unknown fence: yard' });
    expect(m.snapshot.fences.map((f) => f.fenceId)).toEqual(['depot-1']);
    // A payload its kind's schema refuses.
    expect(m.command({ id: 'f8', kind: 'fenceSet', payload: { ...fence, radius: 1 }, expiresAt: now + 60_000 }, now)).toMatchObject({ id: 'f8', result: 'error', message: expect.stringMatching(/^radius: /) });
    expect(m.snapshot.fences).toHaveLength(1);
  });

  it('wanders out of its geo-fence when told to, or by itself a while after keeping one', () => {
    const now = T0 + 60_000;
    const m = new BmuModel({ sn: 'SIM-000006', now: T0, faultsPerHour: 0, wanderOutAfterMs: 30_000 });
    expect(m.wanderOut()).toBeUndefined();
    const here = m.gps(now);
    const fence = { fenceId: 'yard', lng: here.lng, lat: here.lat, radius: 300, action: 'alarm' };
    expect(m.command({ id: 'w1', kind: 'fenceSet', payload: fence, expiresAt: now + 60_000 }, now)).toEqual({ id: 'w1', result: 'ok' });
    /** The next GPS fix it sends from `at` on (messages one second apart). */
    const nextFix = (at: number) => {
      for (let i = 0; i < 10; i++) {
        const msg = m.next(at + i * 1000);
        if (msg.kind === 'gps') return msg.body;
      }
      throw new Error('no fix');
    };
    const away = (fix: { lng: number; lat: number }) => distanceMeters(here.lng, here.lat, fix.lng, fix.lat);
    // Not yet: still where the route takes it.
    nextFix(now + 10_000);
    expect(m.snapshot.wandered).toBeUndefined();
    // 30 s after keeping the fence it leaves: half a radius beyond the border (past the console's band).
    const out = nextFix(now + 30_000);
    expect(m.snapshot.wandered).toBeDefined();
    expect(away(out)).toBeCloseTo(450, -1);
    // Back on its route (where the drive has taken it meanwhile).
    m.wanderBack();
    const back = nextFix(now + 40_000);
    expect(m.snapshot.wandered).toBeUndefined();
    expect(Math.abs(back.lng - out.lng)).toBeGreaterThan(0.001);
    // Told to, at once.
    expect(m.wanderOut()).toEqual([expect.any(Number), here.lat]);
    expect(away(nextFix(now + 50_000))).toBeGreaterThan(400);
  });

  it('acts on a command id once: a repeated delivery is answered again, not applied again', () => {
    const now = T0 + 60_000;
    const m = new BmuModel({ sn: 'SIM-000005', now: T0, faultsPerHour: 0 });
    const add = { id: 'w1', kind: 'whitelist', payload: { op: 'add', numbers: ['+8613800138000'] }, expiresAt: now + 60_000 };
    expect(m.command(add, now)).toEqual({ id: 'w1', result: 'ok' });
    expect(m.command({ id: 'w2', kind: 'whitelist', payload: { op: 'remove', numbers: ['+8613800138000'] }, expiresAt: now + 60_000 }, now)).toEqual({ id: 'w2', result: 'ok' });
    // The first command arrives again (at least once): answered, the number not added back.
    expect(m.command(add, now + 1000)).toEqual({ id: 'w1', result: 'ok' });
    expect(m.snapshot.whitelist).toEqual([]);
    // Even past its expiry, the answer stays the same.
    expect(m.command(add, now + 120_000)).toEqual({ id: 'w1', result: 'ok' });
  });

  it('keeps the voice whitelist: set, add, remove, at most 20 numbers', () => {
    const now = T0 + 60_000;
    const m = new BmuModel({ sn: 'SIM-000006', now: T0, faultsPerHour: 0 });
    const send = (id: string, payload: unknown) => m.command({ id, kind: 'whitelist', payload, expiresAt: now + 60_000 }, now);
    const numbers = Array.from({ length: 19 }, (_, i) => `1380013${String(i).padStart(4, '0')}`);
    expect(send('w1', { op: 'set', numbers })).toEqual({ id: 'w1', result: 'ok' });
    expect(send('w2', { op: 'add', numbers: ['+8612345678', numbers[0]] })).toEqual({ id: 'w2', result: 'ok' });
    expect(m.snapshot.whitelist).toHaveLength(20);
    expect(send('w3', { op: 'add', numbers: ['99999'] })).toEqual({ id: 'w3', result: 'error', message: 'whitelist full: at most 20 numbers' });
    expect(send('w4', { op: 'remove', numbers: [numbers[0], '00000'] })).toEqual({ id: 'w4', result: 'ok' });
    expect(m.snapshot.whitelist).toHaveLength(19);
    expect(m.snapshot.whitelist).not.toContain(numbers[0]);
    expect(send('w5', { op: 'set', numbers: [] })).toEqual({ id: 'w5', result: 'ok' });
    expect(m.snapshot.whitelist).toEqual([]);
    expect(send('w6', { op: 'add', numbers: ['12'] })).toMatchObject({ result: 'error', message: expect.stringMatching(/^numbers\.0: /) });
  });

  it('upgrades its firmware in simulated time: progress acks, ok, then a status with the new version', () => {
    const m = new BmuModel({ sn: 'SIM-000007', now: T0, faultsPerHour: 0, timeScale: 10 });
    const payload = { versionId: 7, name: 'BMU main board', softwareVersion: '1.4.3', module: 'BMS', url: 'https://files.example.com/fw.bin', target: 'device' };
    const cmd = { id: 'u1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 };
    expect(m.status(T0).info).toMatchObject({ firmware: SIM_FIRMWARE });
    expect(m.command(cmd, T0)).toEqual({ id: 'u1', result: 'progress', progress: 0, message: 'downloading' });
    // A second upgrade waits for the first.
    expect(m.command({ ...cmd, id: 'u2', payload: { ...payload, versionId: 8, softwareVersion: '1.5.0' } }, T0)).toEqual({ id: 'u2', result: 'error', message: 'busy: upgrading to 1.4.3' });
    // One message every real second (10 simulated): the acks go out first, the usual messages between.
    const acks: unknown[] = [];
    const kinds: string[] = [];
    for (let s = 1; s <= UPGRADE_SECONDS / 10 + 2; s++) {
      const msg = m.next(T0 + s * 1000);
      kinds.push(msg.kind);
      if (msg.kind === 'ack') acks.push(msg.body);
      if (msg.kind === 'status') expect(msg.body.info).toMatchObject({ firmware: '1.4.3' });
    }
    expect(acks).toEqual([
      { id: 'u1', result: 'progress', progress: 25, message: 'downloading' },
      { id: 'u1', result: 'progress', progress: 50, message: 'downloading' },
      { id: 'u1', result: 'progress', progress: 75, message: 'installing' },
      { id: 'u1', result: 'ok' },
    ]);
    expect(kinds.slice(-2)).toEqual(['status', expect.not.stringMatching(/ack|status/)]);
    expect(m.snapshot.firmware).toEqual({ device: '1.4.3', external: undefined });
    expect(m.snapshot.upgrade).toBeUndefined();
    // Delivered again: answered as it ended. The same version again: nothing to do.
    expect(m.command(cmd, T0 + 10_000)).toEqual({ id: 'u1', result: 'ok' });
    expect(m.command({ ...cmd, id: 'u3' }, T0 + 10_000)).toEqual({ id: 'u3', result: 'ok', message: 'already on 1.4.3' });
  });

  it('a long gap reports only the newest progress; an external device’s firmware is its own', () => {
    const m = new BmuModel({ sn: 'SIM-000008', now: T0, faultsPerHour: 0 });
    const payload = { versionId: 9, name: 'Charger', softwareVersion: '2.0.1', module: 'CHG', url: 'http://10.0.0.5/chg.bin', size: 1024, target: 'external' };
    expect(m.command({ id: 'u1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0)).toMatchObject({ result: 'progress', progress: 0 });
    expect(m.next(T0 + 0.8 * UPGRADE_SECONDS * 1000)).toEqual({ kind: 'ack', body: { id: 'u1', result: 'progress', progress: 75, message: 'installing' } });
    expect(m.snapshot.upgrade).toMatchObject({ versionId: 9, progress: 75 });
    // Asked again meanwhile: the progress now.
    expect(m.command({ id: 'u1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0 + 0.9 * UPGRADE_SECONDS * 1000)).toEqual({ id: 'u1', result: 'progress', progress: 75, message: 'installing' });
    expect(m.next(T0 + UPGRADE_SECONDS * 1000)).toEqual({ kind: 'ack', body: { id: 'u1', result: 'ok' } });
    const status = m.next(T0 + UPGRADE_SECONDS * 1000 + 1);
    expect(status).toMatchObject({ kind: 'status', body: { info: { firmware: SIM_FIRMWARE, externalFirmware: '2.0.1' } } });
  });

  it('cancels an upgrade: the cancel ok, the upgrade ended with an error', () => {
    const m = new BmuModel({ sn: 'SIM-000009', now: T0, faultsPerHour: 0 });
    const payload = { versionId: 4, name: 'BMU', softwareVersion: '1.6.0', module: 'BMS', url: 'https://files.example.com/fw.bin', target: 'device' };
    expect(m.command({ id: 'u1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0)).toMatchObject({ result: 'progress' });
    // Another version's cancel changes nothing.
    expect(m.command({ id: 'x0', kind: 'firmwareCancel', payload: { versionId: 5 }, expiresAt: T0 + 60_000 }, T0 + 1000)).toMatchObject({ id: 'x0', result: 'ok' });
    expect(m.snapshot.upgrade).toBeDefined();
    expect(m.command({ id: 'x1', kind: 'firmwareCancel', payload: { versionId: 4 }, expiresAt: T0 + 60_000 }, T0 + 2000)).toEqual({ id: 'x1', result: 'ok' });
    expect(m.next(T0 + 3000)).toEqual({ kind: 'ack', body: { id: 'u1', result: 'error', message: 'cancelled' } });
    expect(m.snapshot.upgrade).toBeUndefined();
    expect(m.snapshot.firmware.device).toBe(SIM_FIRMWARE);
    // Nothing more about it, however long it runs.
    for (let s = 1; s <= 10; s++) expect(m.next(T0 + 3000 + s * UPGRADE_SECONDS * 100).kind).not.toBe('ack');
    expect(m.command({ id: 'u9', kind: 'firmwareUpgrade', payload: { ...payload, url: 'ftp://x/y' }, expiresAt: T0 + 60_000 }, T0 + 9000)).toMatchObject({ result: 'error', message: expect.stringMatching(/^url: /) });
  });

  it('fails at installation, or goes silent, as often as its rates say', () => {
    const payload = { versionId: 4, name: 'BMU', softwareVersion: '1.6.0', module: 'BMS', url: 'https://files.example.com/fw.bin', target: 'device' };
    const failing = new BmuModel({ sn: 'SIM-000010', now: T0, faultsPerHour: 0, upgradeFailRate: 1 });
    expect(failing.command({ id: 'u1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0)).toMatchObject({ result: 'progress' });
    const acks: unknown[] = [];
    for (let s = 1; s <= UPGRADE_SECONDS + 2; s++) {
      const msg = failing.next(T0 + s * 1000);
      if (msg.kind === 'ack') acks.push(msg.body);
    }
    expect(acks.at(-1)).toEqual({ id: 'u1', result: 'error', message: 'install failed: flash write error' });
    expect(failing.snapshot.firmware.device).toBe(SIM_FIRMWARE);

    const silent = new BmuModel({ sn: 'SIM-000011', now: T0, faultsPerHour: 0, upgradeSilentRate: 1 });
    expect(silent.command({ id: 'u1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0)).toBeUndefined();
    expect(silent.command({ id: 'u1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0 + 1000)).toBeUndefined();
    expect(silent.snapshot.upgrade).toBeUndefined();
    // Other commands are answered as ever.
    expect(silent.command({ id: 'x1', kind: 'firmwareCancel', payload: { versionId: 4 }, expiresAt: T0 + 60_000 }, T0)).toMatchObject({ result: 'ok' });

    // About a third of 300 devices go silent with a rate of 1/3 (seeded by SN: the same every run).
    let quiet = 0;
    for (let i = 0; i < 300; i++) {
      const some = new BmuModel({ sn: `SIM-1${String(i).padStart(5, '0')}`, now: T0, faultsPerHour: 0, upgradeSilentRate: 1 / 3 });
      if (some.command({ id: 'q1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0) === undefined) quiet++;
    }
    expect(quiet).toBeGreaterThan(70);
    expect(quiet).toBeLessThan(130);
  });

  it('with `downloads`, waits for the runtime’s download: its progress, then installs; a bad checksum fails it', () => {
    const payload = { versionId: 4, name: 'BMU', softwareVersion: '1.6.0', module: 'BMS', url: 'http://127.0.0.1:1/fw.bin', target: 'device' };
    const m = new BmuModel({ sn: 'SIM-000013', now: T0, faultsPerHour: 0, downloads: true });
    expect(m.command({ id: 'u1', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0)).toMatchObject({ result: 'progress', progress: 0 });
    // However long the download takes, nothing moves by itself.
    expect(m.next(T0 + 10 * UPGRADE_SECONDS * 1000).kind).not.toBe('ack');
    m.downloaded('u1', T0 + 10 * UPGRADE_SECONDS * 1000, { percent: 60 });
    expect(m.next(T0 + 10 * UPGRADE_SECONDS * 1000 + 1)).toEqual({ kind: 'ack', body: { id: 'u1', result: 'progress', progress: 30, message: 'downloading' } });
    m.downloaded('u1', T0 + 10 * UPGRADE_SECONDS * 1000 + 2, 'done');
    const acks: unknown[] = [];
    for (let s = 0; s <= UPGRADE_SECONDS; s++) {
      const msg = m.next(T0 + 10 * UPGRADE_SECONDS * 1000 + 3 + s * 1000);
      if (msg.kind === 'ack') acks.push(msg.body);
    }
    expect(acks).toEqual([
      { id: 'u1', result: 'progress', progress: 50, message: 'downloading' },
      { id: 'u1', result: 'progress', progress: 75, message: 'installing' },
      { id: 'u1', result: 'ok' },
    ]);
    expect(m.snapshot.firmware.device).toBe('1.6.0');

    const bad = new BmuModel({ sn: 'SIM-000014', now: T0, faultsPerHour: 0, downloads: true });
    bad.command({ id: 'u2', kind: 'firmwareUpgrade', payload, expiresAt: T0 + 3_600_000 }, T0);
    bad.downloaded('u2', T0 + 1000, { error: 'sha256 mismatch' });
    expect(bad.next(T0 + 1001)).toEqual({ kind: 'ack', body: { id: 'u2', result: 'error', message: 'sha256 mismatch' } });
    expect(bad.snapshot.upgrade).toBeUndefined();
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
