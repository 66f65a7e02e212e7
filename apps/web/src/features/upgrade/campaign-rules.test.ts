import { describe, expect, it } from 'vitest';
import { campaignFigures, isFinal, versionOption } from './campaign-rules';

describe('campaign figures', () => {
  it('counts queued and every state with a command out as in progress', () => {
    expect(campaignFigures({ queued: 3, sent: 1, downloading: 2, installing: 1, verifying: 1, succeeded: 5, failed: 1, timedOut: 2, cancelled: 4 })).toEqual({
      succeeded: 5,
      failed: 1,
      timedOut: 2,
      cancelled: 4,
      inProgress: 8,
    });
  });

  it('reads an absent state as none', () => {
    expect(campaignFigures({ succeeded: 2 })).toEqual({ succeeded: 2, failed: 0, timedOut: 0, cancelled: 0, inProgress: 0 });
  });

  it('knows the final states', () => {
    expect(['succeeded', 'failed', 'timedOut', 'cancelled'].every((s) => isFinal(s as never))).toBe(true);
    expect(['queued', 'sent', 'downloading', 'installing', 'verifying'].some((s) => isFinal(s as never))).toBe(false);
  });
});

describe('version options', () => {
  it('name the version, its number, and its manufacturer and module when known', () => {
    expect(versionOption({ id: 4, name: 'BMU main', softwareVersion: '2.0.0', manufacturer: 'Acme', module: 'BMS' })).toEqual({
      id: 4,
      name: 'BMU main',
      softwareVersion: '2.0.0',
      detail: 'Acme · BMS',
    });
    expect(versionOption({ id: 5, name: 'Modem', softwareVersion: '1.1', manufacturer: '', module: '4G' }).detail).toBe('4G');
  });
});
