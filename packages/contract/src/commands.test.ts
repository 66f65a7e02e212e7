import { describe, expect, it } from 'vitest';
import {
  COMMAND_KINDS,
  COMMAND_LIMITS,
  SET_PARAMS_KIND,
  commandEnvelopeSchema,
  commandPayloadSchema,
  isCommandKind,
  type CommandKind,
} from './index.js';

/** The paths of the issues of a refused payload, each once (`[]` when it is accepted). */
function refused(kind: CommandKind, payload: unknown): string[] {
  const r = commandPayloadSchema(kind).safeParse(payload);
  return r.success ? [] : [...new Set(r.error.issues.map((i) => i.path.join('.')))];
}

const fence = { fenceId: 'depot-1', lng: 116.397, lat: 39.909, radius: 500, action: 'lock' };
const upgrade = {
  versionId: 12,
  name: 'BMU main board',
  softwareVersion: '1.4.3',
  module: 'BMS',
  url: 'https://files.example.com/fw/bmu-1.4.3.bin',
  size: 524_288,
  sha256: 'a'.repeat(64),
  target: 'device',
};

/** One good payload of every kind. */
const GOOD: Record<CommandKind, unknown> = {
  setParams: { '10000030': true, '10000031': 0, '01234567': 'on' },
  fenceSet: fence,
  fenceClose: { fenceId: 'depot-1' },
  fenceRelock: { fenceId: 'depot-1' },
  firmwareUpgrade: upgrade,
  firmwareCancel: { versionId: 12 },
  whitelist: { op: 'set', numbers: ['+8613800138000', '13912345678'] },
};

describe('command kinds and payloads', () => {
  it('has a payload schema for every kind, setParams being the set-parameters screen’s kind', () => {
    expect(COMMAND_KINDS).toContain(SET_PARAMS_KIND);
    for (const kind of COMMAND_KINDS) {
      expect(isCommandKind(kind)).toBe(true);
      expect(commandPayloadSchema(kind).safeParse(GOOD[kind]).success, kind).toBe(true);
    }
    expect(isCommandKind('upgrade')).toBe(false);
    expect(isCommandKind(undefined)).toBe(false);
    expect(isCommandKind('toString')).toBe(false);
  });

  it('setParams: 1 to 100 semaphore ids mapped to numbers, texts or booleans', () => {
    expect(refused('setParams', {})).toEqual(['']);
    expect(refused('setParams', { '': 1 })).toEqual(['']);
    expect(refused('setParams', { ['x'.repeat(33)]: 1 })).toEqual(['x'.repeat(33)]);
    expect(refused('setParams', { '10000030': null })).toEqual(['10000030']);
    expect(refused('setParams', { '10000030': { on: true } })).toEqual(['10000030']);
    expect(refused('setParams', { '10000030': 'x'.repeat(257) })).toEqual(['10000030']);
    expect(refused('setParams', [true])).toEqual(['']);
    const many = Object.fromEntries(Array.from({ length: COMMAND_LIMITS.setParams + 1 }, (_, i) => [`p${i}`, i]));
    expect(refused('setParams', many)).toEqual(['']);
    delete many.p0;
    expect(refused('setParams', many)).toEqual([]);
  });

  it('fenceSet: a circle of 10 m to 100 km round a valid point, and what to do on leaving it', () => {
    expect(refused('fenceSet', { ...fence, action: 'alarm', lng: -180, lat: 90, radius: 10 })).toEqual([]);
    expect(refused('fenceSet', { ...fence, radius: COMMAND_LIMITS.radiusMax })).toEqual([]);
    expect(refused('fenceSet', { ...fence, lng: 180.1 })).toEqual(['lng']);
    expect(refused('fenceSet', { ...fence, lat: -90.5 })).toEqual(['lat']);
    expect(refused('fenceSet', { ...fence, radius: 9 })).toEqual(['radius']);
    expect(refused('fenceSet', { ...fence, radius: 100_001 })).toEqual(['radius']);
    expect(refused('fenceSet', { ...fence, radius: 50.5 })).toEqual(['radius']);
    expect(refused('fenceSet', { ...fence, lng: '116.4' })).toEqual(['lng']);
    expect(refused('fenceSet', { ...fence, action: 'explode' })).toEqual(['action']);
    expect(refused('fenceSet', { ...fence, fenceId: '' })).toEqual(['fenceId']);
    expect(refused('fenceSet', { ...fence, fenceId: 'a b' })).toEqual(['fenceId']);
    expect(refused('fenceSet', { ...fence, fenceId: 'f'.repeat(65) })).toEqual(['fenceId']);
    const { action: _, ...noAction } = fence;
    expect(refused('fenceSet', noAction)).toEqual(['action']);
    // A misspelt field is refused, not dropped.
    expect(commandPayloadSchema('fenceSet').safeParse({ ...fence, raduis: 10 }).success).toBe(false);
  });

  it('fenceClose and fenceRelock name the fence only', () => {
    for (const kind of ['fenceClose', 'fenceRelock'] as const) {
      expect(refused(kind, { fenceId: 'depot_1.a-b' })).toEqual([]);
      expect(refused(kind, {})).toEqual(['fenceId']);
      expect(refused(kind, { fenceId: 7 })).toEqual(['fenceId']);
      expect(commandPayloadSchema(kind).safeParse({ fenceId: 'a', radius: 10 }).success).toBe(false);
    }
  });

  it('firmwareUpgrade: the version, an http(s) image, optional size and SHA-256, and its target', () => {
    const { size: _s, sha256: _h, ...bare } = upgrade;
    expect(refused('firmwareUpgrade', { ...bare, target: 'external', url: 'http://10.0.0.5:8080/fw.bin' })).toEqual([]);
    expect(refused('firmwareUpgrade', { ...upgrade, sha256: 'ABCDEF'.repeat(10) + 'abcd' })).toEqual([]);
    expect(refused('firmwareUpgrade', { ...upgrade, url: 'ftp://files.example.com/fw.bin' })).toEqual(['url']);
    expect(refused('firmwareUpgrade', { ...upgrade, url: 'fw.bin' })).toEqual(['url']);
    expect(refused('firmwareUpgrade', { ...upgrade, url: `https://x.example/${'a'.repeat(2048)}` })).toEqual(['url']);
    expect(refused('firmwareUpgrade', { ...upgrade, sha256: 'a'.repeat(63) })).toEqual(['sha256']);
    expect(refused('firmwareUpgrade', { ...upgrade, sha256: 'g'.repeat(64) })).toEqual(['sha256']);
    expect(refused('firmwareUpgrade', { ...upgrade, size: 0 })).toEqual(['size']);
    expect(refused('firmwareUpgrade', { ...upgrade, size: 1.5 })).toEqual(['size']);
    expect(refused('firmwareUpgrade', { ...upgrade, versionId: 0 })).toEqual(['versionId']);
    expect(refused('firmwareUpgrade', { ...upgrade, versionId: '12' })).toEqual(['versionId']);
    expect(refused('firmwareUpgrade', { ...upgrade, softwareVersion: '  ' })).toEqual(['softwareVersion']);
    expect(refused('firmwareUpgrade', { ...upgrade, module: 'm'.repeat(65) })).toEqual(['module']);
    expect(refused('firmwareUpgrade', { ...upgrade, target: 'cloud' })).toEqual(['target']);
    const { target: _t, name: _n, ...partial } = upgrade;
    expect(refused('firmwareUpgrade', partial).sort()).toEqual(['name', 'target']);
  });

  it('firmwareCancel names the version', () => {
    expect(refused('firmwareCancel', { versionId: 1 })).toEqual([]);
    expect(refused('firmwareCancel', {})).toEqual(['versionId']);
    expect(refused('firmwareCancel', { versionId: -3 })).toEqual(['versionId']);
  });

  it('whitelist: up to 20 distinct numbers of 5 to 20 digits (optional +); set may clear, add and remove need one', () => {
    expect(refused('whitelist', { op: 'set', numbers: [] })).toEqual([]);
    expect(refused('whitelist', { op: 'add', numbers: ['12345'] })).toEqual([]);
    expect(refused('whitelist', { op: 'remove', numbers: ['+1234567890123456789'] })).toEqual([]);
    expect(refused('whitelist', { op: 'add', numbers: [] })).toEqual(['numbers']);
    expect(refused('whitelist', { op: 'remove', numbers: [] })).toEqual(['numbers']);
    expect(refused('whitelist', { op: 'set', numbers: ['1234'] })).toEqual(['numbers.0']);
    expect(refused('whitelist', { op: 'set', numbers: ['1'.repeat(21)] })).toEqual(['numbers.0']);
    expect(refused('whitelist', { op: 'set', numbers: ['12345', '138-0013-8000'] })).toEqual(['numbers.1']);
    expect(refused('whitelist', { op: 'set', numbers: ['12345', '++12345'] })).toEqual(['numbers.1']);
    expect(refused('whitelist', { op: 'set', numbers: ['12345', '12345'] })).toEqual(['numbers.1']);
    const numbers = Array.from({ length: COMMAND_LIMITS.whitelistNumbers + 1 }, (_, i) => `1380013${String(i).padStart(4, '0')}`);
    expect(refused('whitelist', { op: 'set', numbers })).toEqual(['numbers']);
    expect(refused('whitelist', { op: 'set', numbers: numbers.slice(1) })).toEqual([]);
    expect(refused('whitelist', { op: 'replace', numbers: ['12345'] })).toEqual(['op']);
    expect(refused('whitelist', { numbers: ['12345'] })).toEqual(['op']);
  });

  it('the envelope checks the payload by its kind', () => {
    const at = 1_795_484_127_533;
    for (const kind of COMMAND_KINDS) {
      expect(commandEnvelopeSchema.safeParse({ id: `c-${kind}`, kind, payload: GOOD[kind], expiresAt: at }).success, kind).toBe(true);
    }
    const parsed = commandEnvelopeSchema.parse({ id: 'c-1', kind: 'fenceSet', payload: fence, expiresAt: at });
    if (parsed.kind === 'fenceSet') expect(parsed.payload.radius).toBe(500);
    const paths = (v: unknown) => {
      const r = commandEnvelopeSchema.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
    };
    // Another kind's payload, an unknown kind, and a broken envelope.
    expect(paths({ id: 'c-2', kind: 'fenceSet', payload: { fenceId: 'depot-1' }, expiresAt: at }).sort()).toEqual(['payload.action', 'payload.lat', 'payload.lng', 'payload.radius']);
    expect(paths({ id: 'c-3', kind: 'upgrade', payload: {}, expiresAt: at })).toEqual(['kind']);
    expect(paths({ id: '', kind: 'fenceClose', payload: { fenceId: 'a' }, expiresAt: at })).toEqual(['id']);
    expect(paths({ id: 'x'.repeat(65), kind: 'fenceClose', payload: { fenceId: 'a' }, expiresAt: at })).toEqual(['id']);
    expect(paths({ id: 'c-4', kind: 'fenceClose', payload: { fenceId: 'a' } })).toEqual(['expiresAt']);
  });
});
