import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { siteConfig } from '../../db/schema/index.js';

export async function readSiteConfig(db: Executor): Promise<unknown> {
  const [row] = await db.select({ data: siteConfig.data }).from(siteConfig).where(eq(siteConfig.id, 1));
  return row?.data;
}

/** Merged into the stored row: a field the page does not know (an older or newer console) stays. */
export async function writeSiteConfig(db: Executor, data: Record<string, unknown>): Promise<void> {
  await db
    .insert(siteConfig)
    .values({ id: 1, data })
    .onConflictDoUpdate({ target: siteConfig.id, set: { data: sql`${siteConfig.data} || excluded.data`, updatedAt: sql`now()` } });
}
