import type { EndpointData } from '@iot/contract';
import type { homeRoutes } from '@iot/contract/plain';

/** The answers of /home/* as the contract declares them (packages/contract/src/home.ts). */
export type { DashboardStyle, HomeDeviceRow, HomeDeviceState as DeviceState } from '@iot/contract';
export type HomeSummary = EndpointData<typeof homeRoutes.list>;
export type LevelNum = EndpointData<typeof homeRoutes.levelNum>;
export type Battery = EndpointData<typeof homeRoutes.battery>;
export type Voice = EndpointData<typeof homeRoutes.voice>;

/** The periods of the trend, the top 5, the energy and the call-outs (HOME_LIMITS.days). */
export type Days = 7 | 30;
