import { z } from 'zod';
import { SEARCH_GROUP_LIMIT } from './limits.js';

/** GET /search: the navbar search's text (an SN, a name, a username). */
export const searchQuerySchema = z.object({
  q: z.string().trim().min(1).max(64),
});

export const searchDeviceSchema = z.object({ id: z.number().int(), name: z.string(), sn: z.string() });
export const searchProjectSchema = z.object({ id: z.number().int(), name: z.string() });
export const searchUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  /** 0 administrator, 1 user (the screen that lists it). */
  type: z.number().int(),
});

/**
 * Up to `SEARCH_GROUP_LIMIT` hits per group, each group present only when the caller holds that
 * list's permission (null otherwise, so the console can tell "not allowed" from "none found").
 */
export const searchResultSchema = z
  .object({
    devices: z.array(searchDeviceSchema).max(SEARCH_GROUP_LIMIT).nullable(),
    projects: z.array(searchProjectSchema).max(SEARCH_GROUP_LIMIT).nullable(),
    users: z.array(searchUserSchema).max(SEARCH_GROUP_LIMIT).nullable(),
  })
  .meta({ id: 'SearchResult' });

export type SearchResult = z.infer<typeof searchResultSchema>;
