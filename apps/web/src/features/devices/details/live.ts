import { useEffect, useState } from 'react';
import { LiveType } from '@iot/contract/plain';
import type { LiveServerMessage } from '@iot/contract';
import { live } from '../../../lib/live';

type CommandMessage = Extract<LiveServerMessage, { type: typeof LiveType.DEVICE_COMMAND }>;

export interface LiveValue {
  value: string | number | boolean;
  /** Device time of the message that brought it. */
  ts: string;
}

export interface DeviceLive {
  online?: boolean;
  lastSeenAt?: string;
  values: Record<string, LiveValue>;
  /** Newest state of each command seen live, by command id. */
  commands: Record<string, CommandMessage>;
  /** The server withdrew the user's access to this device: no live values come any more. */
  revoked?: boolean;
}

/**
 * Follows one device over the live channel while the page is open: its values with their device
 * time, its online state and the state changes of its commands, until the server says the user
 * may no longer see it (`revoked`).
 */
export function useDeviceLive(deviceId: number): DeviceLive {
  const [state, setState] = useState<DeviceLive>({ values: {}, commands: {} });
  useEffect(() => {
    setState({ values: {}, commands: {} });
    const unwatch = live.watchDevices([deviceId]);
    const unsubscribe = live.subscribe((m) => {
      if (m.type === LiveType.DEVICES_REVOKED) {
        // What was shown live is no longer the user's to see.
        if (m.deviceIds.includes(deviceId)) setState({ values: {}, commands: {}, revoked: true });
        return;
      }
      if (!('deviceId' in m) || m.deviceId !== deviceId) return;
      if (m.type === LiveType.DEVICE_VALUES) {
        setState((s) => {
          const values = { ...s.values };
          for (const [id, value] of Object.entries(m.values)) values[id] = { value, ts: m.ts };
          return { ...s, online: true, lastSeenAt: new Date().toISOString(), values };
        });
      } else if (m.type === LiveType.DEVICE_STATUS) {
        setState((s) => ({ ...s, online: m.online, lastSeenAt: m.online ? m.at : s.lastSeenAt }));
      } else if (m.type === LiveType.DEVICE_COMMAND) {
        setState((s) => ({ ...s, commands: { ...s.commands, [m.id]: m } }));
      }
    });
    return () => {
      unsubscribe();
      unwatch();
    };
  }, [deviceId]);
  return state;
}
