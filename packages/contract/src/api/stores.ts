import {
  deviceIdsSchema,
  dischargeOffResultSchema,
  rentalCreateSchema,
  rentalDetailSchema,
  rentalDtoSchema,
  rentalIdSchema,
  rentalListQuerySchema,
  rentalReturnResultSchema,
  rentalReturnSchema,
  rentalSummaryQuerySchema,
  rentalSummarySchema,
  returnCheckSchema,
  stockDevicesSchema,
  stockItemSchema,
  stockQuerySchema,
  storeDtoSchema,
  storeEditSchema,
  storeFieldsSchema,
  storeIdQuerySchema,
  storeListQuerySchema,
} from '../stores.js';
import { z } from 'zod';
import { idsQuerySchema, importQuerySchema, importReportSchema, templateQuerySchema } from '../devices.js';
import { pageOf } from '../envelope.js';
import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { rentalRoutes, storeRoutes } from '../routes/stores.js';
import { countSchema, createdSchema, noDataSchema } from './common.js';

const tags = ['stores'];

/** The schemas of `storeRoutes` (routes/stores.ts). */
export const storeSchemas = {
  list: { tags, summary: 'Stores with their stock by state, filtered, sorted and paged', query: storeListQuerySchema, data: pageOf(storeDtoSchema) },
  item: { tags, query: storeIdQuerySchema, data: storeDtoSchema },
  add: { tags, body: storeFieldsSchema, data: createdSchema },
  edit: { tags, summary: 'Change the fields sent', body: storeEditSchema, data: noDataSchema },
  remove: {
    tags,
    summary: 'Delete stores (id=1,2,3); a store with rentals is refused (close it instead); its packs leave it',
    query: idsQuerySchema,
    data: countSchema,
  },
  stock: { tags, summary: 'A store’s packs with their stock state computed from live data', query: stockQuerySchema, data: pageOf(stockItemSchema) },
  stockDevices: { tags, summary: 'Stock packs at a store (a pack is at one store at a time)', body: stockDevicesSchema, data: countSchema },
  unstockDevices: { tags, summary: 'Take packs out of their store', body: deviceIdsSchema, data: countSchema },
  clearFault: { tags, summary: 'Clear the recorded fault of packs (checked, repaired or found)', body: deviceIdsSchema, data: countSchema },
  importTemplate: { tags, summary: 'Store import template (.xlsx) with headers in a language', query: templateQuerySchema, data: z.null() },
  import: {
    tags,
    summary: 'Import stores from an .xlsx/.xls file (multipart field `file`), owned by the caller; row reasons like the device import',
    query: importQuerySchema,
    data: importReportSchema,
  },
  export: {
    tags,
    summary: 'Stores matching the list filters as .xlsx, with their owner and stock by state',
    query: storeListQuerySchema.omit({ page: true, limit: true }).extend({ lang: templateQuerySchema.shape.lang }),
    data: z.null(),
  },
} satisfies EndpointSchemaTable;
export const storeApi = endpoints(storeRoutes, storeSchemas);

const rentTags = ['rentals'];

/** The schemas of `rentalRoutes` (routes/stores.ts). */
export const rentalSchemas = {
  list: { tags: rentTags, query: rentalListQuerySchema, data: pageOf(rentalDtoSchema) },
  item: { tags: rentTags, summary: 'One rental or sale with its state changes', query: storeIdQuerySchema, data: rentalDetailSchema },
  add: {
    tags: rentTags,
    summary: 'Rent (active, or reserved) or sell a pack stocked at the store; one open rental per pack',
    body: rentalCreateSchema,
    data: createdSchema,
  },
  activate: { tags: rentTags, summary: 'reserved → active (the pack is handed over)', body: rentalIdSchema, data: noDataSchema },
  cancel: { tags: rentTags, summary: 'reserved → cancelled', body: rentalIdSchema, data: noDataSchema },
  lose: { tags: rentTags, summary: 'overdue → lost (the pack is recorded faulty: lost)', body: rentalIdSchema, data: noDataSchema },
  returnCheck: {
    tags: rentTags,
    summary: 'The return check of an active or overdue rental’s pack, read from live data (nothing changes)',
    query: storeIdQuerySchema,
    data: returnCheckSchema,
  },
  giveBack: {
    tags: rentTags,
    summary: 'active | overdue → returned; the pack’s check is recorded and a failing pack goes to faulty',
    body: rentalReturnSchema,
    data: rentalReturnResultSchema,
  },
  summary: {
    tags: rentTags,
    summary: 'The agent view: stores, stock by state, open rentals and revenue by day, week or month, of the caller’s subtree',
    query: rentalSummaryQuerySchema,
    data: rentalSummarySchema,
  },
  dischargeOff: {
    tags: rentTags,
    summary: 'A lost pack: turn its discharge switch off through the command channel (sent now, or at its next connection within 7 days)',
    body: rentalIdSchema,
    data: dischargeOffResultSchema,
  },
  export: {
    tags: rentTags,
    summary: 'Rentals and sales matching the list filters as .xlsx (amounts in the major unit, ID-card numbers masked)',
    query: rentalListQuerySchema.omit({ page: true, limit: true }).extend({ lang: templateQuerySchema.shape.lang }),
    data: z.null(),
  },
  importTemplate: { tags: rentTags, summary: 'Rental import template (.xlsx) with headers in a language', query: templateQuerySchema, data: z.null() },
  import: {
    tags: rentTags,
    summary:
      'Import rentals (active) and sales (sold) of packs stocked at the caller’s stores from an .xlsx/.xls file (multipart field `file`); row reasons like the device import',
    query: importQuerySchema,
    data: importReportSchema,
  },
} satisfies EndpointSchemaTable;
export const rentalApi = endpoints(rentalRoutes, rentalSchemas);
