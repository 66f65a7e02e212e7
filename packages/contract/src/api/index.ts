import type { AnyEndpoint } from '../endpoint.js';
import { alarmApi } from './alarms.js';
import { auditApi } from './audit.js';
import { campaignApi } from './campaigns.js';
import { cardApi, cardOrderApi, cardPriceApi, videoApi } from './cards.js';
import { clientErrorApi } from './clienterrors.js';
import { authApi } from './auth.js';
import { brokerApi } from './broker.js';
import { deviceDataApi } from './devicedata.js';
import { deviceDetailApi } from './devicedetail.js';
import { deviceApi } from './devices.js';
import { deviceTypeApi } from './devicetypes.js';
import { fenceApi } from './fences.js';
import { firmwareApi } from './firmware.js';
import { externalApi } from './external.js';
import { homeApi } from './home.js';
import { mapApi } from './map.js';
import { menuApi } from './menus.js';
import { permissionApi } from './permissions.js';
import { projectApi } from './projects.js';
import { roleApi } from './roles.js';
import { searchApi } from './search.js';
import { siteApi } from './site.js';
import { rentalApi, storeApi } from './stores.js';
import { trackApi } from './track.js';
import { userAdminApi, userApi } from './users.js';

export * from './common.js';
export * from './audit.js';
export * from './auth.js';
export * from './broker.js';
export * from './devicedata.js';
export * from './devices.js';
export * from './devicetypes.js';
export * from './fences.js';
export * from './firmware.js';
export * from './external.js';
export * from './menus.js';
export * from './permissions.js';
export * from './projects.js';
export * from './roles.js';
export * from './search.js';
export * from './home.js';
export * from './map.js';
export * from './site.js';
export * from './users.js';
export * from './devicedetail.js';
export * from './alarms.js';
export * from './cards.js';
export * from './clienterrors.js';
export * from './track.js';
export * from './campaigns.js';
export * from './stores.js';

/**
 * Every declared endpoint, one group per server module. The server's parity check
 * (apps/server/src/plugins/endpoint.ts) compares the registered routes with this list.
 */
export const ENDPOINT_GROUPS: Record<string, Record<string, AnyEndpoint>> = {
  site: siteApi,
  auth: authApi,
  user: userApi,
  userAdmin: userAdminApi,
  roles: roleApi,
  permissions: permissionApi,
  menus: menuApi,
  audit: auditApi,
  clientErrors: clientErrorApi,
  deviceTypes: deviceTypeApi,
  projects: projectApi,
  devices: deviceApi,
  deviceData: deviceDataApi,
  deviceDetail: deviceDetailApi,
  fences: fenceApi,
  firmware: firmwareApi,
  external: externalApi,
  broker: brokerApi,
  alarms: alarmApi,
  cards: cardApi,
  cardOrders: cardOrderApi,
  cardPrices: cardPriceApi,
  video: videoApi,
  search: searchApi,
  home: homeApi,
  map: mapApi,
  track: trackApi,
  campaigns: campaignApi,
  stores: storeApi,
  rentals: rentalApi,
};

export const ENDPOINTS: readonly AnyEndpoint[] = Object.values(ENDPOINT_GROUPS).flatMap((group) => Object.values(group));
