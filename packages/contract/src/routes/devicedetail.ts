import type { deviceDetailSchemas } from '../api/devicedetail.js';
import { routes } from '../route.js';

/** §7 device details: grouped live parameters, set parameters, history, charts, energy. */
export const deviceDetailRoutes = routes<typeof deviceDetailSchemas>()({
  groupInfo: { method: 'GET', path: '/device/groupinfo', permission: ['device:detail', 'device:list'] },
  displayGroups: { method: 'GET', path: '/device/displayparamgrouplist', permission: ['device:detail', 'device:list'] },
  setParamList: { method: 'GET', path: '/device/setparamlist', permission: ['device:detail', 'device:command'] },
  setParams: { method: 'POST', path: '/device/setparams', permission: 'device:command', audit: 'device.setparams' },
  commands: { method: 'GET', path: '/device/commandlist', permission: ['device:detail', 'device:command'] },
  history: { method: 'GET', path: '/device/devicehistoricallist', permission: ['device:detail', 'device:list'], heavy: true },
  historyRange: { method: 'GET', path: '/device/historyrange', permission: ['device:detail', 'device:list'] },
  historyExport: {
    method: 'GET',
    path: '/device/devicehistoricallist/export',
    permission: ['device:detail', 'device:list'],
    kind: 'file',
    heavy: true,
  },
  chart: { method: 'GET', path: '/device/devicehistoricallisttoecharts', permission: ['device:detail', 'device:list'], heavy: true },
  energy: { method: 'GET', path: '/device/totalElectrictityConsumption', permission: ['device:detail', 'device:list'], heavy: true },
});
