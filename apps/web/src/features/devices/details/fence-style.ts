import type { GlobalToken } from 'antd';
import type { FenceState } from '@iot/contract/plain';
import type { FenceDto } from '@iot/contract';
import type { MapCircle } from '../../../components/map/DeviceMap';

/** Tag colours of the fence states (antd presets: each pair of text and tint passes 4.5:1). */
export const FENCE_STATE_TAGS: Record<FenceState, string> = {
  set: 'processing',
  issued: 'success',
  relocked: 'success',
  failed: 'error',
  offline: 'warning',
  removed: 'default',
};

/** The fences not removed, as circles in their states' colours (the theme's). */
export function fenceCircles(fences: readonly FenceDto[], token: GlobalToken): MapCircle[] {
  const color: Record<FenceState, string> = {
    set: token.colorInfo,
    issued: token.colorSuccess,
    relocked: token.colorSuccess,
    failed: token.colorError,
    offline: token.colorWarning,
    removed: token.colorTextQuaternary,
  };
  return fences
    .filter((f) => f.state !== 'removed')
    .map((f) => ({ key: String(f.id), lng: f.lng, lat: f.lat, radius: f.radius, color: color[f.state] }));
}
