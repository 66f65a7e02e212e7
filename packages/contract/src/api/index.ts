import type { AnyEndpoint } from '../endpoint.js';
import { alarmApi } from './alarms.js';
import { projectApi } from './projects.js';

export * from './common.js';
export * from './projects.js';
export * from './alarms.js';

/**
 * Every declared endpoint, one group per server module. The server's parity check
 * (apps/server/src/plugins/endpoint.ts) compares the registered routes with this list.
 */
export const ENDPOINT_GROUPS: Record<string, Record<string, AnyEndpoint>> = {
  projects: projectApi,
  alarms: alarmApi,
};

export const ENDPOINTS: readonly AnyEndpoint[] = Object.values(ENDPOINT_GROUPS).flatMap((group) => Object.values(group));
