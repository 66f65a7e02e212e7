/**
 * Stores (outlets) and rentals or sales of battery packs (issue #38): the values the console and
 * the server share without zod. The state machine of a rental is `RENTAL_TRANSITIONS`; the
 * server applies each transition as one guarded update (`... where state = <from>`).
 */

export const STORE_STATUSES = ['open', 'closed', 'suspended'] as const;
export type StoreStatus = (typeof STORE_STATUSES)[number];

/**
 * A stocked pack's state, computed from live data in this order: rented (an open rental),
 * faulty (a fault recorded by a return check or a loss, or an active alarm of level ≥ 3),
 * offline, charging, available (SOC ≥ the store's threshold) and low (online, healthy, below it).
 */
export const STOCK_STATES = ['available', 'charging', 'low', 'rented', 'faulty', 'offline'] as const;
export type StockState = (typeof STOCK_STATES)[number];

/** The alarm level from which a pack counts as faulty. */
export const FAULTY_ALARM_LEVEL = 3;

export const RENTAL_KINDS = ['rent', 'sale'] as const;
export type RentalKind = (typeof RENTAL_KINDS)[number];

export const RENTAL_STATES = ['reserved', 'active', 'overdue', 'returned', 'lost', 'sold', 'cancelled'] as const;
export type RentalState = (typeof RENTAL_STATES)[number];
/** States in which the pack is with (or promised to) a customer: one such rental per pack. */
export const RENTAL_OPEN_STATES = ['reserved', 'active', 'overdue'] as const satisfies readonly RentalState[];

export const RENTAL_ACTIONS = ['activate', 'cancel', 'return', 'lose'] as const;
export type RentalAction = (typeof RENTAL_ACTIONS)[number];

/** reserved → active → returned | overdue → returned | lost; reserved → cancelled. */
export const RENTAL_TRANSITIONS: Record<RentalAction, { from: readonly RentalState[]; to: RentalState }> = {
  activate: { from: ['reserved'], to: 'active' },
  cancel: { from: ['reserved'], to: 'cancelled' },
  return: { from: ['active', 'overdue'], to: 'returned' },
  lose: { from: ['overdue'], to: 'lost' },
};

/** The actions a rental in this state allows (the console offers only these). */
export function rentalActions(state: RentalState): RentalAction[] {
  return RENTAL_ACTIONS.filter((a) => RENTAL_TRANSITIONS[a].from.includes(state));
}

/** Currencies amounts may be kept in; every amount is an integer in the currency's minor unit. */
export const CURRENCIES = ['CNY', 'USD', 'EUR', 'JPY'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const STORE_LIMITS = {
  name: 64,
  code: 32,
  address: 256,
  contact: 64,
  phone: 32,
  hours: 128,
  remark: 500,
  customerName: 64,
  email: 128,
  idCard: 32,
  /** Largest amount in minor units (a PostgreSQL integer). */
  amount: 2_000_000_000,
  /** Longest rental, days. */
  days: 3660,
  /** Rows an export or import holds. */
  sheetRows: 5000,
} as const;

/** Why a pack fails a store's return check. */
export const RETURN_FAULTS = ['cellSpread', 'temperature', 'alarm'] as const;
export type ReturnFault = (typeof RETURN_FAULTS)[number];

/** A pack's recorded fault: a failed return check, or a loss (cleared by the store when fixed or found). */
export const STOCK_FAULTS = ['returnCheck', 'lost'] as const;
export type StockFault = (typeof STOCK_FAULTS)[number];

/**
 * An ID-card number as it is stored and shown: every character but the last 4 replaced by `*`
 * (the full number is never stored).
 */
export function maskIdCard(id: string): string {
  const v = id.trim();
  if (v.length <= 4) return v;
  return `${'*'.repeat(v.length - 4)}${v.slice(-4)}`;
}

/** The agent view's revenue buckets. */
export const REVENUE_PERIODS = ['day', 'week', 'month'] as const;
export type RevenuePeriod = (typeof REVENUE_PERIODS)[number];

/** Digits of each currency's minor unit: amounts are integers of it. */
export const CURRENCY_DIGITS: Record<Currency, number> = { CNY: 2, USD: 2, EUR: 2, JPY: 0 };

/** Columns of the store spreadsheet (template, import and export); headers in any language. */
export const STORE_SHEET_COLUMNS = [
  { key: 'name', required: true, zh: '门店名称', en: 'Name', es: 'Nombre', ja: '名称' },
  { key: 'code', required: true, zh: '门店编码', en: 'Code', es: 'Código', ja: 'コード' },
  { key: 'status', required: false, zh: '状态', en: 'Status', es: 'Estado', ja: '状態' },
  { key: 'address', required: false, zh: '地址', en: 'Address', es: 'Dirección', ja: '住所' },
  { key: 'lng', required: false, zh: '经度', en: 'Longitude', es: 'Longitud', ja: '経度' },
  { key: 'lat', required: false, zh: '纬度', en: 'Latitude', es: 'Latitud', ja: '緯度' },
  { key: 'contact', required: false, zh: '联系人', en: 'Contact', es: 'Contacto', ja: '連絡先' },
  { key: 'phone', required: false, zh: '电话', en: 'Phone', es: 'Teléfono', ja: '電話' },
  { key: 'openingHours', required: false, zh: '营业时间', en: 'Opening hours', es: 'Horario', ja: '営業時間' },
  { key: 'minSoc', required: false, zh: '可租电量下限(%)', en: 'Available from SOC (%)', es: 'Disponible desde SOC (%)', ja: '貸出可能SOC下限(%)' },
  { key: 'maxCellDeltaMv', required: false, zh: '最大压差(mV)', en: 'Max cell spread (mV)', es: 'Diferencia máx. de celdas (mV)', ja: '最大セル電圧差(mV)' },
  { key: 'maxTempC', required: false, zh: '最高温度(°C)', en: 'Max temperature (°C)', es: 'Temperatura máx. (°C)', ja: '最高温度(°C)' },
  { key: 'remark', required: false, zh: '备注', en: 'Remark', es: 'Observaciones', ja: '備考' },
] as const;
export type StoreSheetKey = (typeof STORE_SHEET_COLUMNS)[number]['key'];
/** The export adds the owner and the stock by state. */
export const STORE_EXPORT_COLUMNS = [
  ...STORE_SHEET_COLUMNS,
  { key: 'owner', required: false, zh: '负责人', en: 'Owner', es: 'Responsable', ja: '担当者' },
  { key: 'available', required: false, zh: '可租', en: 'Available', es: 'Disponibles', ja: '貸出可能' },
  { key: 'charging', required: false, zh: '充电中', en: 'Charging', es: 'Cargando', ja: '充電中' },
  { key: 'low', required: false, zh: '电量低', en: 'Low charge', es: 'Carga baja', ja: '残量不足' },
  { key: 'rented', required: false, zh: '已租出', en: 'Rented', es: 'Alquiladas', ja: '貸出中' },
  { key: 'faulty', required: false, zh: '故障', en: 'Faulty', es: 'Averiadas', ja: '故障' },
  { key: 'offline', required: false, zh: '离线', en: 'Offline', es: 'Sin conexión', ja: 'オフライン' },
] as const;
export type StoreExportKey = (typeof STORE_EXPORT_COLUMNS)[number]['key'];

/** Columns of the rental export; amounts in the currency's major unit (12.50), times in UTC ISO 8601. */
export const RENTAL_EXPORT_COLUMNS = [
  { key: 'id', zh: '编号', en: 'No.', es: 'N.º', ja: '番号' },
  { key: 'kind', zh: '类型', en: 'Type', es: 'Tipo', ja: '種別' },
  { key: 'state', zh: '状态', en: 'State', es: 'Estado', ja: '状態' },
  { key: 'store', zh: '门店', en: 'Store', es: 'Tienda', ja: '店舗' },
  { key: 'deviceSn', zh: '电池包SN', en: 'Pack SN', es: 'SN de la batería', ja: 'パックSN' },
  { key: 'customerName', zh: '客户', en: 'Customer', es: 'Cliente', ja: '顧客' },
  { key: 'customerPhone', zh: '客户电话', en: 'Customer phone', es: 'Teléfono del cliente', ja: '顧客の電話' },
  { key: 'idCardMasked', zh: '身份证号', en: 'ID-card number', es: 'Número de documento', ja: '身分証番号' },
  { key: 'currency', zh: '币种', en: 'Currency', es: 'Moneda', ja: '通貨' },
  { key: 'deposit', zh: '押金', en: 'Deposit', es: 'Fianza', ja: '保証金' },
  { key: 'pricePerDay', zh: '日租金', en: 'Price per day', es: 'Precio por día', ja: '日額' },
  { key: 'totalPrice', zh: '总价', en: 'Total price', es: 'Precio total', ja: '総額' },
  { key: 'charged', zh: '已收费用', en: 'Charged', es: 'Cobrado', ja: '請求額' },
  { key: 'startAt', zh: '开始时间', en: 'Start', es: 'Inicio', ja: '開始' },
  { key: 'dueAt', zh: '应还时间', en: 'Due back', es: 'Devolución prevista', ja: '返却期限' },
  { key: 'returnedAt', zh: '归还时间', en: 'Returned', es: 'Devuelta', ja: '返却日時' },
] as const;
export type RentalExportKey = (typeof RENTAL_EXPORT_COLUMNS)[number]['key'];

/**
 * Columns of the rental import (template and import; headers in any language): a pack stocked at
 * the store (by its code) rented (state active) or sold (state sold) to a customer. Amounts in the
 * currency's major unit (12.50), times ISO 8601 (UTC when no offset is written) or spreadsheet dates.
 */
export const RENTAL_SHEET_COLUMNS = [
  { key: 'store', required: true, zh: '门店编码', en: 'Store code', es: 'Código de tienda', ja: '店舗コード' },
  { key: 'deviceSn', required: true, zh: '电池包SN', en: 'Pack SN', es: 'SN de la batería', ja: 'パックSN' },
  { key: 'customerName', required: true, zh: '客户', en: 'Customer', es: 'Cliente', ja: '顧客' },
  { key: 'customerPhone', required: true, zh: '客户电话', en: 'Customer phone', es: 'Teléfono del cliente', ja: '顧客の電話' },
  { key: 'idCard', required: false, zh: '身份证号', en: 'ID-card number', es: 'Número de documento', ja: '身分証番号' },
  { key: 'email', required: false, zh: '邮箱', en: 'E-mail', es: 'Correo electrónico', ja: 'メール' },
  { key: 'kind', required: false, zh: '类型', en: 'Type', es: 'Tipo', ja: '種別' },
  { key: 'state', required: false, zh: '状态', en: 'State', es: 'Estado', ja: '状態' },
  { key: 'currency', required: false, zh: '币种', en: 'Currency', es: 'Moneda', ja: '通貨' },
  { key: 'deposit', required: false, zh: '押金', en: 'Deposit', es: 'Fianza', ja: '保証金' },
  { key: 'pricePerDay', required: false, zh: '日租金', en: 'Price per day', es: 'Precio por día', ja: '日額' },
  { key: 'totalPrice', required: false, zh: '总价', en: 'Total price', es: 'Precio total', ja: '総額' },
  { key: 'startAt', required: false, zh: '开始时间', en: 'Start', es: 'Inicio', ja: '開始' },
  { key: 'dueAt', required: false, zh: '应还时间', en: 'Due back', es: 'Devolución prevista', ja: '返却期限' },
  { key: 'remark', required: false, zh: '备注', en: 'Remark', es: 'Observaciones', ja: '備考' },
] as const;
export type RentalSheetKey = (typeof RENTAL_SHEET_COLUMNS)[number]['key'];
/** The states an imported row may have: a rental out with its customer, or a sale. */
export const RENTAL_IMPORT_STATES = { rent: 'active', sale: 'sold' } as const satisfies Record<RentalKind, RentalState>;

/**
 * A lost pack's discharge switch (the built-in battery type's writable `10000031`): the store may
 * turn it off through the command channel, delivered when the pack next connects (within the TTL).
 */
export const DISCHARGE_SWITCH_PARAM = '10000031';
export const DISCHARGE_OFF_TTL_MS = 7 * 86_400_000;
