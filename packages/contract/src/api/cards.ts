import { z } from 'zod';
import {
  cardDtoSchema,
  cardEditSchema,
  cardFieldsSchema,
  cardIdQuerySchema,
  cardListQuerySchema,
  cardLiveQuerySchema,
  expiringQuerySchema,
  orderCreateSchema,
  orderCreatedSchema,
  orderDetailSchema,
  orderDtoSchema,
  orderEditSchema,
  orderListQuerySchema,
  payQrSchema,
  priceCreateSchema,
  priceDtoSchema,
  priceEditSchema,
  priceListQuerySchema,
  simBasicInfoResultSchema,
  simulatePayResultSchema,
  simulatePaySchema,
  videoH5ResultSchema,
  videoH5Schema,
  voiceMarginResultSchema,
  voiceWhitelistResultSchema,
  whitelistConfigResultSchema,
  whitelistConfigSchema,
} from '../cards.js';
import { idsQuerySchema, importQuerySchema, importReportSchema, templateQuerySchema } from '../devices.js';
import { errorEnvelopeSchema, pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { cardRoutes, cardOrderRoutes, cardPriceRoutes, videoRoutes } from '../routes/cards.js';
import { countSchema, createdSchema, noDataSchema } from './common.js';

const tags = ['cards'];

/** The schemas of `cardRoutes` (routes/cards.ts). */
export const cardSchemas = {
  list: {
    tags,
    summary: 'SIM cards with filters, search, sorting and paging',
    query: cardListQuerySchema,
    data: pageOf(cardDtoSchema),
  },
  expiring: {
    tags,
    summary: 'SIM cards expiring within `days` (expired ones included), soonest first',
    query: expiringQuerySchema,
    data: pageOf(cardDtoSchema),
  },
  item: { tags, query: cardIdQuerySchema, data: cardDtoSchema },
  add: { tags, body: cardFieldsSchema, data: createdSchema },
  edit: {
    tags,
    summary: 'Change the fields sent; a linked device gets the card’s number as its SIM number',
    body: cardEditSchema,
    data: noDataSchema,
  },
  remove: { tags, summary: 'Delete SIM cards (id=1,2,3)', query: idsQuerySchema, data: countSchema },
  basicInfo: {
    tags,
    summary: 'Carrier: basic SIM info (OneLink CMIOT_API23S00), cached briefly; refresh=true asks again',
    description: 'A carrier failure answers 20000 with ok=false and the carrier’s code and message.',
    query: cardLiveQuerySchema,
    data: simBasicInfoResultSchema,
  },
  voiceMargin: {
    tags,
    summary: 'Carrier: voice margin per offering (OneLink CMIOT_API23U05)',
    query: cardLiveQuerySchema,
    data: voiceMarginResultSchema,
  },
  whitelist: {
    tags,
    summary: 'Carrier: the member voice whitelist (OneLink CMIOT_API23M15)',
    query: cardLiveQuerySchema,
    data: voiceWhitelistResultSchema,
  },
  configWhitelist: {
    tags,
    summary: 'Carrier: add or delete a member voice whitelist number (OneLink CMIOT_API23M16)',
    body: whitelistConfigSchema,
    data: whitelistConfigResultSchema,
  },
  importTemplate: {
    tags,
    summary: 'SIM card import template (.xlsx) with headers in a language',
    query: templateQuerySchema,
    data: z.null(),
  },
  import: {
    tags,
    summary: 'Import SIM cards from an .xlsx/.xls file (multipart field `file`)',
    query: importQuerySchema,
    data: importReportSchema,
  },
  export: {
    tags,
    summary: 'SIM cards matching the list filters as .xlsx (expiringWithin=N for the expiring list)',
    query: cardListQuerySchema.omit({ page: true, limit: true }).extend({ lang: templateQuerySchema.shape.lang }),
    data: z.null(),
  },
} satisfies EndpointSchemaTable;
export const cardApi = endpoints(cardRoutes, cardSchemas);

const orderTags = ['card orders'];

/** The schemas of `cardOrderRoutes` (routes/cards.ts). */
export const cardOrderSchemas = {
  list: { tags: orderTags, query: orderListQuerySchema, data: pageOf(orderDtoSchema) },
  item: {
    tags: orderTags,
    summary: 'One order with its cards; an unknown one answers 40400 "no card order data" (§8)',
    query: cardIdQuerySchema,
    data: orderDetailSchema,
  },
  add: {
    tags: orderTags,
    summary: 'A renewal or top-up of one or many cards, unpaid until the provider notifies',
    body: orderCreateSchema,
    data: orderCreatedSchema,
  },
  edit: { tags: orderTags, body: orderEditSchema, data: noDataSchema },
  remove: {
    tags: orderTags,
    summary: 'Delete unpaid, cancelled or expired orders (id=1,2,3)',
    query: idsQuerySchema,
    data: countSchema,
  },
  payQr: {
    tags: orderTags,
    summary: 'The payment QR code (code_url) of an unpaid order',
    query: cardIdQuerySchema,
    data: payQrSchema,
  },
  notify: {
    tags: orderTags,
    summary: 'The payment provider’s signed notification (WeChat Pay v3 or the simulated provider)',
    description: 'Signature and amount are checked; an order is marked paid once; every notification is logged.',
    body: z.record(z.string(), z.unknown()),
    data: z.object({ code: z.string(), message: z.string() }),
    // A refused notification (`FAIL`), or the API's error envelope for a body that is not JSON.
    otherAnswers: { 400: z.union([z.object({ code: z.string(), message: z.string() }), errorEnvelopeSchema]) },
  },
  simulatePay: {
    tags: orderTags,
    summary: 'Simulated provider only: the customer pays (a signed notification is delivered)',
    body: simulatePaySchema,
    data: simulatePayResultSchema,
  },
} satisfies EndpointSchemaTable;
export const cardOrderApi = endpoints(cardOrderRoutes, cardOrderSchemas);

const priceTags = ['card prices'];

/** The schemas of `cardPriceRoutes` (routes/cards.ts). */
export const cardPriceSchemas = {
  list: { tags: priceTags, query: priceListQuerySchema, data: pageOf(priceDtoSchema) },
  options: { tags: priceTags, summary: 'The enabled prices an order may be made at', data: z.array(priceDtoSchema) },
  add: { tags: priceTags, body: priceCreateSchema, data: z.object({ id: z.number().int() }) },
  edit: {
    tags: priceTags,
    summary: 'A price’s new terms apply to orders made from now on; orders already made keep theirs',
    body: priceEditSchema,
    data: noDataSchema,
  },
  remove: { tags: priceTags, query: idsQuerySchema, data: countSchema },
} satisfies EndpointSchemaTable;
export const cardPriceApi = endpoints(cardPriceRoutes, cardPriceSchemas);

/** The schemas of `videoRoutes` (routes/cards.ts). */
export const videoSchemas = {
  h5Url: { tags: ['video'], body: videoH5Schema, data: videoH5ResultSchema },
} satisfies EndpointSchemaTable;
export const videoApi = endpoints(videoRoutes, videoSchemas);
