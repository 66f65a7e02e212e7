import type { cardSchemas, cardOrderSchemas, cardPriceSchemas, videoSchemas } from '../api/cards.js';
import { PUBLIC } from '../permissions.js';
import { routes } from '../route.js';

/** §7 Cards: SIM cards, their live carrier data and voice whitelist. */
export const cardRoutes = routes<typeof cardSchemas>()({
  list: { method: 'GET', path: '/card/getSimList', permission: 'card:list' },
  expiring: { method: 'GET', path: '/card/getExpirationSimList', permission: 'card:list' },
  item: { method: 'GET', path: '/card/getSimItem', permission: 'card:list' },
  add: { method: 'POST', path: '/card/addCard', permission: 'card:edit', audit: 'card.add' },
  edit: { method: 'POST', path: '/card/editCard', permission: 'card:edit', audit: 'card.edit' },
  remove: { method: 'DELETE', path: '/card/deleteCard', permission: 'card:edit', audit: 'card.delete' },
  basicInfo: { method: 'GET', path: '/card/sim_basic_info', permission: 'card:list' },
  voiceMargin: { method: 'GET', path: '/card/sim_voice_margin', permission: 'card:list' },
  whitelist: { method: 'GET', path: '/card/member_voice_whitelist', permission: 'card:list' },
  configWhitelist: {
    method: 'POST',
    path: '/card/config_member_voice_whitelist',
    permission: 'card:edit',
    audit: 'card.whitelist',
  },
  importTemplate: { method: 'GET', path: '/card/importtemplate', permission: 'card:edit', kind: 'file' },
  import: { method: 'POST', path: '/card/import', permission: 'card:edit', audit: 'card.import', kind: 'upload' },
  export: { method: 'GET', path: '/card/export', permission: 'card:list', kind: 'file', heavy: true },
});

/** §7 Cards: card orders and their payment (WeChat Pay Native or the simulated provider). */
export const cardOrderRoutes = routes<typeof cardOrderSchemas>()({
  list: { method: 'GET', path: '/card/getCardOrderList', permission: 'card:order' },
  item: { method: 'GET', path: '/card/getCardOrderItem', permission: 'card:order' },
  add: { method: 'POST', path: '/card/addCardOrder', permission: 'card:order', audit: 'cardorder.add' },
  edit: { method: 'POST', path: '/card/editCardOrder', permission: 'card:order', audit: 'cardorder.edit' },
  remove: { method: 'DELETE', path: '/card/deleteCardOrder', permission: 'card:order', audit: 'cardorder.delete' },
  payQr: { method: 'GET', path: '/wechat/getPayQRCode', permission: 'card:order' },
  notify: { method: 'POST', path: '/wechat/notify', permission: PUBLIC, audit: false, kind: 'raw' },
  simulatePay: { method: 'POST', path: '/wechat/simulatePay', permission: 'card:order', audit: 'cardorder.simulatepay' },
});

/** The price list orders take their unit price from (card:price sets it, card:order picks from it). */
export const cardPriceRoutes = routes<typeof cardPriceSchemas>()({
  list: { method: 'GET', path: '/card/getPriceList', permission: 'card:price' },
  options: { method: 'GET', path: '/card/priceOptions', permission: 'card:order' },
  add: { method: 'POST', path: '/card/addPrice', permission: 'card:price', audit: 'cardprice.add' },
  edit: { method: 'POST', path: '/card/editPrice', permission: 'card:price', audit: 'cardprice.edit' },
  remove: { method: 'DELETE', path: '/card/deletePrice', permission: 'card:price', audit: 'cardprice.delete' },
});

/** §7 POST /getVideoH5Url: a playable H5 address of a device's camera. */
export const videoRoutes = routes<typeof videoSchemas>()({
  h5Url: { method: 'POST', path: '/getVideoH5Url', permission: 'device:detail', audit: 'video.open' },
});
