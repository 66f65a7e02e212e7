import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { siteConfig } from '../../db/schema/index.js';

export async function readSiteConfig(db: Executor): Promise<unknown> {
  const [row] = await db.select({ data: siteConfig.data }).from(siteConfig).where(eq(siteConfig.id, 1));
  return row?.data;
}
