import { z } from 'zod';
import { editOf } from './edit.js';
import { calendarDateSchema, idNumberSchema, idSchema, pageQuerySchema } from './envelope.js';
import { CARD_CARRIERS, CARD_STATUSES, ORDER_KINDS, ORDER_STATUSES, PAYMENT_OUTCOMES, type OrderKind } from './enums.js';
import { CARD_LIMITS, PATTERNS } from './limits.js';

/**
 * SIM cards and card orders (§2 /card/index, /card/orderManagement; §7 Cards). The spec does not
 * show their fields: they are those of a carrier's fleet console (ICCID, MSISDN, IMSI, plan,
 * status, dates, usage and allowance, linked device, project). Live carrier data follows the
 * China Mobile OneLink operations (sim-basic-info, sim-voice-margin, member-voice-whitelist).
 */


const order = z.enum(['asc', 'desc']).default('desc');
const text = (max: number) => z.string().trim().max(max).default('');
const digitsOf = (max: number, min = 0) =>
  z.string().trim().min(min, 'please enter the number').max(max).regex(PATTERNS.digits, 'digits only');
const count = (max: number) => z.number().int().min(0).max(max);

// ---------------------------------------------------------------- cards

export const cardListQuerySchema = pageQuerySchema.extend({
  /** Free text over ICCID, MSISDN, IMSI, plan and the linked device's name or SN. */
  q: z.string().trim().max(64).optional(),
  status: z.enum(CARD_STATUSES).optional(),
  carrier: z.enum(CARD_CARRIERS).optional(),
  projectId: idSchema.optional(),
  /** Cards expiring within this many days (already expired included). */
  expiringWithin: z.coerce.number().int().min(0).max(CARD_LIMITS.expiringDays).optional(),
  /** true: only cards with a linked device; false: only cards without. */
  linked: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  sort: z.enum(['createdAt', 'iccid', 'msisdn', 'expiresAt', 'activatedAt', 'status', 'id']).default('createdAt'),
  order,
});
export type CardListQuery = z.input<typeof cardListQuerySchema>;

/** GET /card/getExpirationSimList: cards expiring within `days`, soonest first. */
export const expiringQuerySchema = pageQuerySchema.extend({
  days: z.coerce.number().int().min(0).max(CARD_LIMITS.expiringDays).default(30),
});

export const cardFieldsSchema = z.object({
  iccid: digitsOf(CARD_LIMITS.iccid, 1).refine((v) => v.length >= 19, 'an ICCID has 19 or 20 digits'),
  msisdn: digitsOf(CARD_LIMITS.msisdn).default(''),
  imsi: digitsOf(CARD_LIMITS.imsi).default(''),
  carrier: z.enum(CARD_CARRIERS).default('chinaMobile'),
  plan: text(CARD_LIMITS.plan),
  status: z.enum(CARD_STATUSES).default('active'),
  activatedAt: calendarDateSchema.nullable().default(null),
  expiresAt: calendarDateSchema.nullable().default(null),
  dataUsedMb: count(100_000_000).default(0),
  dataAllowanceMb: count(100_000_000).default(0),
  voiceUsedMin: count(10_000_000).default(0),
  voiceAllowanceMin: count(10_000_000).default(0),
  /** The carrier's group of the card (OneLink groupId), needed for the member voice whitelist. */
  groupId: z.string().trim().max(CARD_LIMITS.groupId).regex(/^[A-Za-z0-9_-]*$/, 'letters, digits and _ - only').default(''),
  projectId: idSchema.nullable().default(null),
  /**
   * The device the card sits in. Saving writes the card's number (MSISDN, else ICCID) into the
   * device's SIM number; a device whose SIM number is the card's ICCID or MSISDN is its device.
   */
  deviceId: idSchema.nullable().default(null),
  remarks: text(CARD_LIMITS.remarks),
});
export type CardFields = z.input<typeof cardFieldsSchema>;
export const cardEditSchema = editOf(cardFieldsSchema).extend({ id: idSchema });

/**
 * What the caller may do with a card (computed by the server like a device's `can`: the card's
 * owner line or its project owner's, and the route's permission code).
 */
export const cardCanSchema = z.object({
  /** POST /card/editCard and the voice whitelist. */
  edit: z.boolean(),
  /** DELETE /card/deleteCard. */
  delete: z.boolean(),
});
export type CardCan = z.infer<typeof cardCanSchema>;

export const cardDtoSchema = z
  .object({
    id: z.number().int(),
    iccid: z.string(),
    msisdn: z.string(),
    imsi: z.string(),
    carrier: z.enum(CARD_CARRIERS),
    plan: z.string(),
    status: z.enum(CARD_STATUSES),
    activatedAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    /** Whole days until expiry (negative: expired), null without an expiry date. */
    daysLeft: z.number().int().nullable(),
    dataUsedMb: z.number().int(),
    dataAllowanceMb: z.number().int(),
    voiceUsedMin: z.number().int(),
    voiceAllowanceMin: z.number().int(),
    groupId: z.string(),
    projectId: z.number().int().nullable(),
    projectName: z.string().nullable(),
    deviceId: z.number().int().nullable(),
    deviceName: z.string().nullable(),
    deviceSn: z.string().nullable(),
    remarks: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    /** What the caller may do with this card (see `cardCanSchema`). */
    can: cardCanSchema,
  })
  .meta({ id: 'SimCard' });
export type CardDto = z.infer<typeof cardDtoSchema>;

export const cardIdQuerySchema = z.object({ id: idSchema });
export const cardLiveQuerySchema = z.object({
  id: idSchema,
  /** true: ask the carrier now instead of answering from the short cache. */
  refresh: z.enum(['true', 'false']).transform((v) => v === 'true').default(false),
});

/** A carrier call's answer: its data, or the carrier's error (the page shows it and goes on). */
const carrierResult = <T extends z.ZodType>(data: T) =>
  z.object({
    ok: z.boolean(),
    data: data.nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    /** When the carrier answered (a cached answer keeps its time). */
    fetchedAt: z.string(),
    cached: z.boolean(),
    /** The carrier adapter that answered (`onelink`, `simulated`). */
    carrier: z.string(),
  });

export const simBasicInfoSchema = z.object({
  msisdn: z.string(),
  imsi: z.string(),
  iccid: z.string(),
  activeDate: z.string(),
  openDate: z.string(),
});
export type SimBasicInfo = z.infer<typeof simBasicInfoSchema>;
export const voiceOfferingSchema = z.object({
  offeringId: z.string(),
  offeringName: z.string(),
  totalAmount: z.number(),
  useAmount: z.number(),
  remainAmount: z.number(),
});
export type VoiceOffering = z.infer<typeof voiceOfferingSchema>;
export const whitelistEntrySchema = z.object({
  whiteNumber: z.string(),
  /** The carrier's status of the number (OneLink: 1 effective, 2 pending…), as text. */
  status: z.string(),
});
export type WhitelistEntry = z.infer<typeof whitelistEntrySchema>;
export const voiceWhitelistSchema = z.object({
  totalCount: z.number().int(),
  max: z.number().int(),
  numbers: z.array(whitelistEntrySchema),
});
export type VoiceWhitelist = z.infer<typeof voiceWhitelistSchema>;

export const simBasicInfoResultSchema = carrierResult(simBasicInfoSchema);
export const voiceMarginResultSchema = carrierResult(z.array(voiceOfferingSchema));
export const voiceWhitelistResultSchema = carrierResult(voiceWhitelistSchema);

export const whitelistConfigSchema = z.object({
  id: idNumberSchema,
  /** OneLink operType: 1 add, 4 delete. */
  operation: z.enum(['add', 'delete']),
  whiteNumber: z
    .string()
    .trim()
    .min(1, 'please enter the number')
    .max(CARD_LIMITS.whiteNumber)
    .regex(/^\+?\d+$/, 'digits only'),
});
/** The carrier's answer to a whitelist change. */
export const whitelistConfigResultSchema = z.object({ ok: z.boolean(), message: z.string() });

// ---------------------------------------------------------------- card sheets

/** Columns of the card spreadsheet (template, import and export); headers in any language. */
export const CARD_SHEET_COLUMNS = [
  { key: 'iccid', required: true, zh: 'ICCID', en: 'ICCID', es: 'ICCID', ja: 'ICCID' },
  { key: 'msisdn', required: false, zh: 'MSISDN(卡号)', en: 'MSISDN', es: 'MSISDN', ja: 'MSISDN' },
  { key: 'imsi', required: false, zh: 'IMSI', en: 'IMSI', es: 'IMSI', ja: 'IMSI' },
  { key: 'carrier', required: false, zh: '运营商', en: 'Carrier', es: 'Operador', ja: 'キャリア' },
  { key: 'plan', required: false, zh: '套餐', en: 'Plan', es: 'Plan', ja: 'プラン' },
  { key: 'status', required: false, zh: '状态', en: 'Status', es: 'Estado', ja: 'ステータス' },
  { key: 'activatedAt', required: false, zh: '激活日期', en: 'Activation date', es: 'Fecha de activación', ja: '開通日' },
  { key: 'expiresAt', required: false, zh: '到期日期', en: 'Expiry date', es: 'Fecha de vencimiento', ja: '有効期限' },
  { key: 'dataAllowanceMb', required: false, zh: '流量额度(MB)', en: 'Data allowance (MB)', es: 'Datos incluidos (MB)', ja: 'データ容量 (MB)' },
  { key: 'voiceAllowanceMin', required: false, zh: '语音额度(分钟)', en: 'Voice allowance (min)', es: 'Voz incluida (min)', ja: '通話容量 (分)' },
  { key: 'groupId', required: false, zh: '群组ID', en: 'Group ID', es: 'ID de grupo', ja: 'グループID' },
  { key: 'project', required: false, zh: '项目名称', en: 'Project', es: 'Proyecto', ja: 'プロジェクト' },
  { key: 'remarks', required: false, zh: '备注', en: 'Remarks', es: 'Observaciones', ja: '備考' },
] as const;
export type CardSheetKey = (typeof CARD_SHEET_COLUMNS)[number]['key'];
/** The export adds what the import does not take: usage and the linked device. */
export const CARD_EXPORT_COLUMNS = [
  ...CARD_SHEET_COLUMNS,
  { key: 'dataUsedMb', required: false, zh: '已用流量(MB)', en: 'Data used (MB)', es: 'Datos usados (MB)', ja: 'データ使用量 (MB)' },
  { key: 'voiceUsedMin', required: false, zh: '已用语音(分钟)', en: 'Voice used (min)', es: 'Voz usada (min)', ja: '通話使用量 (分)' },
  { key: 'device', required: false, zh: '设备SN', en: 'Device SN', es: 'SN del dispositivo', ja: 'デバイスSN' },
  { key: 'daysLeft', required: false, zh: '剩余天数', en: 'Days left', es: 'Días restantes', ja: '残り日数' },
] as const;
export type CardExportKey = (typeof CARD_EXPORT_COLUMNS)[number]['key'];
export const CARD_EXPORT_MAX = 50_000;

// ---------------------------------------------------------------- order list

export const orderListQuerySchema = pageQuerySchema.extend({
  /** Order number or a card's ICCID / MSISDN. */
  q: z.string().trim().max(64).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  kind: z.enum(ORDER_KINDS).optional(),
  cardId: idSchema.optional(),
  sort: z.enum(['createdAt', 'paidAt', 'amountCents', 'id']).default('createdAt'),
  order,
});

// ---------------------------------------------------------------- price list

/**
 * The price list (card:price): what a renewal month of a plan, or a top-up package, costs per
 * card. Orders take their unit price from it, never from the caller: the money goes to the
 * platform's merchant account, so only holders of card:price (granted by SUPERADMIN) set it.
 */
export const priceFieldsSchema = z
  .object({
    kind: z.enum(ORDER_KINDS).default('renewal'),
    /** Renewals: the plan the cards are on once paid. Top-ups: the package's name. */
    plan: z.string().trim().min(1, 'please enter the plan').max(CARD_LIMITS.plan),
    /** Top-ups: data the package adds to each card. Renewals: 0. */
    topupMb: z.number().int().min(0).max(CARD_LIMITS.topupMb).default(0),
    /** Per card and month (renewal) or per card (top-up), in cents. */
    unitPriceCents: z.number().int().min(1).max(CARD_LIMITS.unitPriceCents),
    /** A disabled price is kept but cannot be ordered. */
    enabled: z.boolean().default(true),
    remarks: text(CARD_LIMITS.remarks),
  });
const priceRules = (o: { kind?: OrderKind; topupMb?: number }, ctx: z.RefinementCtx) => {
  if (o.kind === 'topup' && o.topupMb !== undefined && o.topupMb < 1) {
    ctx.addIssue({ code: 'custom', path: ['topupMb'], message: 'a top-up adds at least 1 MB' });
  }
};
export const priceCreateSchema = priceFieldsSchema.superRefine(priceRules);
export type PriceCreate = z.input<typeof priceCreateSchema>;
/** POST /card/editPrice: the kind of a price stays (orders already made keep their terms). */
export const priceEditSchema = editOf(priceFieldsSchema).omit({ kind: true }).extend({ id: idNumberSchema });

export const priceListQuerySchema = pageQuerySchema.extend({
  /** Plan or package name. */
  q: z.string().trim().max(64).optional(),
  kind: z.enum(ORDER_KINDS).optional(),
  enabled: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  sort: z.enum(['plan', 'unitPriceCents', 'updatedAt', 'id']).default('plan'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export const priceDtoSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(ORDER_KINDS),
    plan: z.string(),
    topupMb: z.number().int(),
    unitPriceCents: z.number().int(),
    enabled: z.boolean(),
    remarks: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'CardPrice' });
export type PriceDto = z.infer<typeof priceDtoSchema>;

// ---------------------------------------------------------------- orders

const orderFieldsShape = {
  /** The price list entry: its kind, plan, top-up and unit price become the order's terms. */
  priceId: idNumberSchema,
  /** Renewals: months each card's expiry moves on when paid. Top-ups: ignored. */
  months: z.number().int().min(0).max(CARD_LIMITS.months).default(1),
  remarks: text(CARD_LIMITS.remarks),
};
export const orderCreateSchema = z.object({ ...orderFieldsShape, cardIds: z.array(idNumberSchema).min(1).max(CARD_LIMITS.orderCards) });
export type OrderCreate = z.input<typeof orderCreateSchema>;
/**
 * POST /card/editCardOrder: an unpaid order's price (an entry of the same kind), months or
 * remarks; or its status: `cancelled` (unpaid only) or `refunded` (paid only: the cards' expiry,
 * plan and data go back to what the order found, the money goes back through the payment
 * provider's own console).
 */
export const orderEditSchema = z.object({
  id: idNumberSchema,
  priceId: idNumberSchema.optional(),
  months: z.number().int().min(0).max(CARD_LIMITS.months).optional(),
  remarks: z.string().trim().max(CARD_LIMITS.remarks).optional(),
  status: z.enum(['cancelled', 'refunded']).optional(),
});

export const orderItemSchema = z.object({
  cardId: z.number().int().nullable(),
  iccid: z.string(),
  msisdn: z.string(),
  /** The card's expiry before the payment, and after it (renewals, once paid). */
  expiresBefore: z.string().nullable(),
  expiresAfter: z.string().nullable(),
});
export const orderDtoSchema = z
  .object({
    id: z.number().int(),
    orderNo: z.string(),
    kind: z.enum(ORDER_KINDS),
    plan: z.string(),
    months: z.number().int(),
    topupMb: z.number().int(),
    unitPriceCents: z.number().int(),
    /** The price list entry the terms were copied from (null once that price is deleted). */
    priceId: z.number().int().nullable(),
    amountCents: z.number().int(),
    status: z.enum(ORDER_STATUSES),
    cardCount: z.number().int(),
    /** The first cards' ICCIDs, for the list. */
    iccids: z.array(z.string()),
    remarks: z.string(),
    createdBy: z.string(),
    createdAt: z.string(),
    /** An unpaid order expires (status `expired`) at this time. */
    payBefore: z.string(),
    paidAt: z.string().nullable(),
    provider: z.string(),
    transactionId: z.string().nullable(),
  })
  .meta({ id: 'CardOrder' });
export type OrderDto = z.infer<typeof orderDtoSchema>;
export const orderDetailSchema = orderDtoSchema.extend({ items: z.array(orderItemSchema) });
export const orderCreatedSchema = z.object({ id: z.number().int(), orderNo: z.string(), amountCents: z.number().int() });

/** GET /wechat/getPayQRCode: what the console shows as a QR code. */
export const payQrSchema = z.object({
  orderNo: z.string(),
  /** The payment provider's `code_url` (WeChat Pay Native: weixin://wxpay/bizpayurl?pr=…). */
  codeUrl: z.string(),
  amountCents: z.number().int(),
  /** The QR code is payable until then (the order's deadline). */
  payBefore: z.string(),
  provider: z.string(),
});
export type PayQr = z.infer<typeof payQrSchema>;

/** The simulated provider's "the customer paid" button (demo and tests). */
export const simulatePaySchema = z.object({
  id: idNumberSchema,
  /** Pays another amount than the order's (tests a refusal). */
  amountCents: z.number().int().min(0).max(1_000_000_000).optional(),
});
export const simulatePayResultSchema = z.object({ outcome: z.enum(PAYMENT_OUTCOMES) });

// ---------------------------------------------------------------- video

export const videoH5Schema = z.object({ deviceId: idNumberSchema });
export const videoH5ResultSchema = z.object({
  url: z.string(),
  /** The URL stops playing at this time. */
  expiresAt: z.string(),
  provider: z.string(),
});
