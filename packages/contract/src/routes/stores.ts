import type { rentalSchemas, storeSchemas } from '../api/stores.js';
import { routes } from '../route.js';

/** Stores (outlets) and their stock of packs (issue #38, §2 /store/index). */
export const storeRoutes = routes<typeof storeSchemas>()({
  list: { method: 'GET', path: '/store/list', permission: 'store:list' },
  item: { method: 'GET', path: '/store/item', permission: 'store:list' },
  add: { method: 'POST', path: '/store/add', permission: 'store:edit', audit: 'store.add' },
  edit: { method: 'POST', path: '/store/edit', permission: 'store:edit', audit: 'store.edit' },
  remove: { method: 'DELETE', path: '/store/delete', permission: 'store:edit', audit: 'store.delete' },
  stock: { method: 'GET', path: '/store/stock', permission: 'store:list' },
  stockDevices: { method: 'POST', path: '/store/stockdevices', permission: 'store:edit', audit: 'store.stock' },
  unstockDevices: { method: 'POST', path: '/store/unstockdevices', permission: 'store:edit', audit: 'store.unstock' },
  clearFault: { method: 'POST', path: '/store/clearfault', permission: 'store:edit', audit: 'store.clearfault' },
  importTemplate: { method: 'GET', path: '/store/importtemplate', permission: 'store:edit', kind: 'file' },
  import: { method: 'POST', path: '/store/import', permission: 'store:edit', audit: 'store.import', kind: 'upload' },
  export: { method: 'GET', path: '/store/export', permission: 'store:list', kind: 'file', heavy: true },
});

/** Rentals and sales of packs (issue #38, §2 /rent/index). */
export const rentalRoutes = routes<typeof rentalSchemas>()({
  list: { method: 'GET', path: '/rent/list', permission: 'rent:list' },
  item: { method: 'GET', path: '/rent/item', permission: 'rent:list' },
  add: { method: 'POST', path: '/rent/add', permission: 'rent:edit', audit: 'rent.add' },
  activate: { method: 'POST', path: '/rent/activate', permission: 'rent:edit', audit: 'rent.activate' },
  cancel: { method: 'POST', path: '/rent/cancel', permission: 'rent:edit', audit: 'rent.cancel' },
  lose: { method: 'POST', path: '/rent/lose', permission: 'rent:edit', audit: 'rent.lose' },
  returnCheck: { method: 'GET', path: '/rent/returncheck', permission: 'rent:list' },
  giveBack: { method: 'POST', path: '/rent/return', permission: 'rent:edit', audit: 'rent.return' },
  summary: { method: 'GET', path: '/rent/summary', permission: 'rent:overview' },
  export: { method: 'GET', path: '/rent/export', permission: 'rent:list', kind: 'file', heavy: true },
  importTemplate: { method: 'GET', path: '/rent/importtemplate', permission: 'rent:edit', kind: 'file' },
  import: { method: 'POST', path: '/rent/import', permission: 'rent:edit', audit: 'rent.import', kind: 'upload' },
  dischargeOff: { method: 'POST', path: '/rent/dischargeoff', permission: 'rent:command', audit: 'rent.dischargeoff' },
});
