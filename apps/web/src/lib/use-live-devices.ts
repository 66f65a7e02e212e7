import { useEffect, useMemo, useState } from 'react';
import { LiveType } from '@iot/contract/plain';
import { live } from './live';

export interface LiveDeviceState {
  online?: boolean;
  /** ISO time of the newest message seen live. */
  lastSeenAt?: string;
  values: Record<string, string | number | boolean>;
}

/**
 * Follows the given devices over the live channel while the component is mounted: their online
 * state, last-seen time and newest values as they arrive (only devices the user may see; the
 * server leaves others out).
 */
export function useLiveDevices(ids: readonly number[]): ReadonlyMap<number, LiveDeviceState> {
  const key = [...ids].sort((a, b) => a - b).join(',');
  const [states, setStates] = useState<ReadonlyMap<number, LiveDeviceState>>(new Map());

  useEffect(() => {
    const followed = key ? key.split(',').map(Number) : [];
    if (followed.length === 0) return undefined;
    const wanted = new Set(followed);
    const unwatch = live.watchDevices(followed);
    const unsubscribe = live.subscribe((m) => {
      if (m.type === LiveType.DEVICES_REVOKED) {
        // Access withdrawn: the row shows its last fetched state, not what came live.
        setStates((prev) => {
          if (!m.deviceIds.some((id) => prev.has(id))) return prev;
          const next = new Map(prev);
          for (const id of m.deviceIds) next.delete(id);
          return next;
        });
        return;
      }
      if (m.type !== LiveType.DEVICE_VALUES && m.type !== LiveType.DEVICE_STATUS) return;
      if (!wanted.has(m.deviceId)) return;
      setStates((prev) => {
        const next = new Map(prev);
        const cur = next.get(m.deviceId) ?? { values: {} };
        next.set(
          m.deviceId,
          m.type === LiveType.DEVICE_VALUES
            ? { ...cur, online: true, lastSeenAt: new Date().toISOString(), values: { ...cur.values, ...m.values } }
            : { ...cur, online: m.online, lastSeenAt: m.online ? m.at : cur.lastSeenAt },
        );
        return next;
      });
    });
    return () => {
      unsubscribe();
      unwatch();
    };
  }, [key]);

  return useMemo(() => states, [states]);
}
