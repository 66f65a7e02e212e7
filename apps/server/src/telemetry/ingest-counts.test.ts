import { describe, expect, it } from 'vitest';
import { IngestCounts } from './ingest.service.js';

describe('IngestCounts', () => {
  it('counts a message that stored anything as accepted, else as refused under its first reason', () => {
    const c = new IngestCounts();
    c.count('mqtt', { accepted: 1, rejected: [] });
    // Some values refused, others stored: accepted (the refusals are in the device log).
    c.count('mqtt', { accepted: 2, rejected: [{ reason: 'wrongType', semaphoreId: 'V' }] });
    // A status message stores no value and refuses nothing.
    c.count('http', { accepted: 0, rejected: [] });
    c.count('http', { accepted: 0, rejected: [{ reason: 'rateLimited' }] });
    c.count('http', { accepted: 0, rejected: [{ reason: 'wrongType', semaphoreId: 'V' }, { reason: 'unknownParameter', semaphoreId: 'X' }] });
    c.count('http', { accepted: 0, rejected: [{ reason: 'rateLimited' }] });
    c.failed('mqtt');

    expect(Object.fromEntries(c.accepted)).toEqual({ mqtt: 2, http: 1 });
    expect(Object.fromEntries([...c.refused].map(([t, m]) => [t, Object.fromEntries(m)]))).toEqual({
      http: { rateLimited: 2, wrongType: 1 },
      mqtt: { writeFailed: 1 },
    });
  });
});
