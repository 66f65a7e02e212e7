import { describe, expect, it } from 'vitest';
import { alarmListLink, deviceListLink, periodStart, startOfToday } from './links';

describe('dashboard links', () => {
  it('a period of n days starts at the local midnight n − 1 days before today', () => {
    const now = new Date(2026, 2, 3, 15, 30); // 3 March, local time
    expect(new Date(periodStart(7, now)).getTime()).toBe(new Date(2026, 1, 25).getTime()); // 25 February
    expect(new Date(periodStart(30, now)).getTime()).toBe(new Date(2026, 1, 2).getTime());
    expect(startOfToday(now)).toBe(new Date(2026, 2, 3).toISOString());
  });

  it('each quick filter opens the device list with the filter the list reads', () => {
    expect(deviceListLink('alarming')).toBe('/device/list?alarming=true&sort=warningLevel&order=desc');
    expect(deviceListLink('online', { projectId: 4 })).toBe('/device/list?projectId=4&online=true');
    expect(deviceListLink('all')).toBe('/device/list');
    expect(alarmListLink({ projectId: 2, from: '2026-02-25T00:00:00.000Z' })).toBe(
      '/project/alarminfo?projectId=2&from=2026-02-25T00%3A00%3A00.000Z',
    );
  });
});
