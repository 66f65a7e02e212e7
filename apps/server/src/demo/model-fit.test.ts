import { describe, expect, it } from 'vitest';
import { ackSchema, deviceAlarmSchema, gpsSchema, paramSchema, statusSchema, telemetrySchema } from '@iot/contract';
import { BmuModel } from '@iot/sim-model';
import { BMU_PARAMS } from '../db/seed/bmu.js';
import { decodeValues, type ParamDef } from '../telemetry/decode.js';

/**
 * The simulated battery (packages/sim-model) against the built-in battery type it plays: every
 * value it generates passes ingestion's checks of the type's definitions, at the type's precision,
 * and every message has the protocol's shape.
 */
describe('simulated BMU fits the built-in battery type', () => {
  const params = BMU_PARAMS.map((p) => paramSchema.parse(p));
  const defs = new Map<string, ParamDef>(params.map((p) => [p.semaphoreId, p]));
  const T0 = Date.UTC(2026, 5, 1, 0, 0, 0);

  it('sends only values the type accepts, every parameter of it, at its precision', () => {
    const precision = new Map(params.map((p) => [p.semaphoreId, 10 ** p.precision]));
    const sent = new Set<string>();
    const problems: unknown[] = [];
    let telemetry = 0;
    for (let n = 1; n <= 6; n++) {
      const m = new BmuModel({ sn: `FIT-${n}`, now: T0, faultsPerHour: 3 });
      for (let t = 60_000; t <= 36 * 3_600_000; t += 90_000) {
        const msg = m.next(T0 + t);
        switch (msg.kind) {
          case 'telemetry': {
            telemetry++;
            if (!telemetrySchema.safeParse(msg.body).success) problems.push(msg);
            const { accepted, rejected } = decodeValues(defs, msg.body.values);
            if (rejected.length > 0) problems.push(rejected);
            for (const [id, v] of Object.entries(accepted)) {
              sent.add(id);
              const f = precision.get(id)!;
              if (typeof v === 'number' && Math.abs(v * f - Math.round(v * f)) > 1e-6) problems.push({ id, v });
            }
            break;
          }
          case 'gps':
            if (!gpsSchema.safeParse(msg.body).success) problems.push(msg);
            break;
          case 'alarm': {
            // An alarm is about a parameter of the type, with a value it would accept.
            const ok = deviceAlarmSchema.safeParse(msg.body).success && decodeValues(defs, { [msg.body.id]: msg.body.value }).rejected.length === 0;
            if (!ok) problems.push(msg);
            break;
          }
          default:
            problems.push(msg);
        }
      }
      expect(statusSchema.safeParse(m.status(T0)).success).toBe(true);
      expect(ackSchema.safeParse(m.command({ id: 'x', kind: 'reboot', payload: {} }, T0 + 40 * 3_600_000)).success).toBe(true);
    }
    expect(problems).toEqual([]);
    expect(telemetry).toBeGreaterThan(1000);
    expect([...sent].sort()).toEqual(params.map((p) => p.semaphoreId).sort());
  });

  it('answers setParams only for the writable parameters of the type', () => {
    const writable = params.filter((p) => p.writable).map((p) => p.semaphoreId);
    const m = new BmuModel({ sn: 'FIT-W', now: T0 });
    for (const id of writable) {
      expect(m.command({ id: `c-${id}`, kind: 'setParams', payload: { [id]: true }, expiresAt: T0 + 60_000 }, T0 + 1000)).toEqual({ id: `c-${id}`, result: 'ok' });
    }
    for (const p of params.filter((x) => !x.writable).slice(0, 5)) {
      expect(m.command({ id: 'c', kind: 'setParams', payload: { [p.semaphoreId]: 1 } }, T0 + 1000)).toMatchObject({ result: 'error' });
    }
  });
});
