import type { DeviceState } from './types';

/**
 * Where the dashboard's cards lead: the lists they summarise, with the filters those lists read
 * from their address (DeviceTable's and AlarmInfoPage's FilterSpec). Routes, not imports: a
 * feature never imports another.
 */
export const DEVICE_LIST = '/device/list';
export const ALARM_LIST = '/project/alarminfo';

export const devicePage = (id: number) => `/project/info?id=${id}`;

const withQuery = (path: string, query: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
};

/**
 * The device list showing a quick filter's devices: alarming devices (any open alarm) most severe
 * first; devices gone offline as the offline ones, last seen first.
 */
export function deviceListLink(state: DeviceState, extra: { projectId?: number } = {}): string {
  const base = { projectId: extra.projectId };
  switch (state) {
    case 'online':
      return withQuery(DEVICE_LIST, { ...base, online: 'true' });
    case 'offline':
      return withQuery(DEVICE_LIST, { ...base, online: 'false' });
    case 'offline24h':
      return withQuery(DEVICE_LIST, { ...base, online: 'false', sort: 'lastSeenAt', order: 'desc' });
    case 'alarming':
      return withQuery(DEVICE_LIST, { ...base, alarming: 'true', sort: 'warningLevel', order: 'desc' });
    default:
      return withQuery(DEVICE_LIST, base);
  }
}

/** The device list opening its add drawer or import dialog (DeviceTable reads `?open=`). */
export const deviceAddLink = withQuery(DEVICE_LIST, { open: 'add' });
export const deviceImportLink = withQuery(DEVICE_LIST, { open: 'import' });

/** The alarm list with a level, a state, a project or a device, and alarms since a time. */
export function alarmListLink(filters: { level?: number; state?: 'untreated'; projectId?: number; device?: string; from?: string } = {}): string {
  return withQuery(ALARM_LIST, filters);
}

/**
 * The first local midnight of a period of `days` days ending today (the server's period: decision
 * 0024), as the alarm list's `from` filter spells a time.
 */
export const periodStart = (days: number, now = new Date()) =>
  new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1)).toISOString();

/** Local midnight today. */
export const startOfToday = (now = new Date()) => periodStart(1, now);
