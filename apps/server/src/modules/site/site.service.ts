import { siteConfigSchema, type SiteConfig } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { SITE_DEFAULTS } from '../../db/seed/site.js';
import { readSiteConfig } from './site.repo.js';

/** The site configuration the console shows before and after login (§1). */
export class SiteService {
  constructor(private readonly db: Db) {}

  /** Stored values win; defaults fill fields added after the row was written. */
  async config(): Promise<SiteConfig> {
    const stored = siteConfigSchema.partial().safeParse(await readSiteConfig(this.db));
    return { ...SITE_DEFAULTS, ...(stored.success ? stored.data : {}) };
  }
}
