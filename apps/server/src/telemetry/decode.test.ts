import { describe, expect, it } from 'vitest';
import { checkValue, decodeValues, deviceTime, type ParamDef } from './decode.js';

const def = (over: Partial<ParamDef>): ParamDef => ({ semaphoreId: 'x', dataType: 'number', min: null, max: null, enumValues: [], ...over });

describe('value checks against a parameter definition', () => {
  it('numbers: numeric strings accepted, ranges and integers enforced', () => {
    expect(checkValue(def({ min: 0, max: 100 }), '52.5')).toEqual({ value: 52.5 });
    expect(checkValue(def({ min: 0, max: 100 }), 101)).toEqual({ reason: 'outOfRange' });
    expect(checkValue(def({}), 'abc')).toEqual({ reason: 'wrongType' });
    expect(checkValue(def({}), '')).toEqual({ reason: 'wrongType' });
    expect(checkValue(def({}), '-3')).toEqual({ value: -3 });
    expect(checkValue(def({}), '+1.5e3')).toEqual({ value: 1500 });
    expect(checkValue(def({ dataType: 'integer' }), '1e3')).toEqual({ value: 1000 });
    expect(checkValue(def({ dataType: 'integer' }), 2.5)).toEqual({ reason: 'wrongType' });
    expect(checkValue(def({ dataType: 'integer' }), -3)).toEqual({ value: -3 });
  });
  it('numbers as text: plain decimals only (Number() would take hex, padding, Infinity)', () => {
    for (const text of ['0x10', '0b1', '0o7', '  12 ', '12 ', '\t5', 'Infinity', '-Infinity', 'NaN', '1_000', '1,5', '.5', '5.', '1e', '--1', '1e999']) {
      expect(checkValue(def({}), text), text).toEqual({ reason: 'wrongType' });
      expect(checkValue(def({ dataType: 'integer' }), text), text).toEqual({ reason: 'wrongType' });
    }
  });
  it('booleans, enums and text', () => {
    expect(checkValue(def({ dataType: 'boolean' }), 1)).toEqual({ value: true });
    expect(checkValue(def({ dataType: 'boolean' }), 'yes')).toEqual({ reason: 'wrongType' });
    const e = def({ dataType: 'enum', enumValues: [{ value: '0' }, { value: '2' }] });
    expect(checkValue(e, 2)).toEqual({ value: '2' });
    expect(checkValue(e, '9')).toEqual({ reason: 'notInEnum' });
    expect(checkValue(def({ dataType: 'text' }), 'x'.repeat(257))).toEqual({ reason: 'outOfRange' });
  });
  it('a message keeps its good values and names each bad one', () => {
    const defs = new Map([
      ['a', def({ semaphoreId: 'a', max: 10 })],
      ['b', def({ semaphoreId: 'b' })],
    ]);
    expect(decodeValues(defs, { a: 11, b: 3, c: 1 })).toEqual({
      accepted: { b: 3 },
      rejected: [
        { reason: 'outOfRange', semaphoreId: 'a', value: 11 },
        { reason: 'unknownParameter', semaphoreId: 'c', value: 1 },
      ],
    });
  });
});

describe('device time', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  const window = { maxPastMs: 7 * 86_400_000, maxFutureMs: 600_000 };
  it('reads epoch ms, 10-digit seconds and ISO; absent is now', () => {
    expect(deviceTime(now - 1000, now, window)).toEqual(new Date(now - 1000));
    expect(deviceTime((now - 5000) / 1000, now, window)).toEqual(new Date(now - 5000));
    expect(deviceTime(String((now - 5000) / 1000), now, window)).toEqual(new Date(now - 5000));
    expect(deviceTime('2026-11-23T11:00:00Z', now, window)).toEqual(new Date(now - 3_600_000));
    expect(deviceTime(undefined, now, window)).toEqual(new Date(now));
  });
  it('tells a time outside the accepted window from one that cannot be read', () => {
    expect(deviceTime(now - 8 * 86_400_000, now, window)).toBe('outOfRange');
    expect(deviceTime(now + 3_600_000, now, window)).toBe('outOfRange');
    expect(deviceTime('2026-01-01T00:00:00Z', now, window)).toBe('outOfRange');
    expect(deviceTime('yesterday', now, window)).toBe('invalid');
    expect(deviceTime('2026-13-45T99:99:99Z', now, window)).toBe('invalid');
  });
});
