import { siteConfigSchema, type MapSettings, type PublicConfig, type SiteConfig } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { SITE_DEFAULTS } from '../../db/seed/site.js';
import { readSiteConfig, writeSiteConfig } from './site.repo.js';

/** The stored configuration as read back: any field may be missing (built once, not per request). */
const storedConfigSchema = siteConfigSchema.partial();

/** The site configuration the console shows before and after login (§1). */
export class SiteService {
  /** `map` comes from the server configuration (MAP_TILE_URL, MAP_TILE_ATTRIBUTION). */
  constructor(
    private readonly db: Db,
    private readonly map: MapSettings = { tileUrl: null, tileAttribution: '', tileDatum: 'wgs84' },
  ) {}

  /** Stored values win; defaults fill fields added after the row was written. */
  async config(): Promise<PublicConfig> {
    const stored = storedConfigSchema.safeParse(await readSiteConfig(this.db));
    return { ...SITE_DEFAULTS, ...(stored.success ? stored.data : {}), map: this.map };
  }

  /**
   * Stores every field (the site settings page sends the whole form; the route's schema checked
   * it). Only the super administrator holds `site:edit` by default: the settings are everyone's.
   */
  async update(config: SiteConfig): Promise<void> {
    await writeSiteConfig(this.db, config);
  }
}
