import { z } from 'zod';

/** `data` of a route that answers only its message. */
export const noDataSchema = z.null();
/** `data` of a create route: the new row's id. */
export const createdSchema = z.object({ id: z.number().int() });
/** `data` of a bulk route: how many rows it touched. */
export const countSchema = z.object({ count: z.number().int() });
