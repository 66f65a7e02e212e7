import { z } from 'zod';
import { MAP_TILE_DATUMS } from './enums.js';

/** Fields of the site configuration that are localised with the suffixes En, Es, Ja (§1). */
export const LOCALISED_SITE_FIELDS = [
  'title',
  'company',
  'copyright',
  'address',
] as const;

const localised = <K extends string>(k: K) =>
  ({
    [k]: z.string(),
    [`${k}En`]: z.string(),
    [`${k}Es`]: z.string(),
    [`${k}Ja`]: z.string(),
  }) as Record<K | `${K}En` | `${K}Es` | `${K}Ja`, z.ZodString>;

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #409EFF');

export const siteConfigSchema = z.object({
  ...localised('title'),
  ...localised('company'),
  ...localised('copyright'),
  ...localised('address'),
  logo: z.string(),
  contactTel: z.string(),
  email: z.string(),
  /** Particle colours for the login page (§1). */
  particleLogo: hex,
  particleBackground: hex,
  particleButton: hex,
  particleFooter: hex,
}).meta({ id: 'SiteConfig' });
export type SiteConfig = z.infer<typeof siteConfigSchema>;

/** How the console draws maps (server configuration, not stored): see README "Configuration". */
export const mapSettingsSchema = z.object({
  /**
   * Leaflet tile URL template (`MAP_TILE_URL`); null: the console draws its bundled world outline
   * and loads nothing from elsewhere.
   */
  tileUrl: z.string().nullable(),
  /** Plain-text attribution shown on the tiles (`MAP_TILE_ATTRIBUTION`). */
  tileAttribution: z.string(),
  /**
   * The datum the tiles are drawn on (`MAP_TILE_DATUM`): `wgs84` (OpenStreetMap and most), or
   * `gcj02` (providers in mainland China), for which the console converts positions (geo.ts).
   */
  tileDatum: z.enum(MAP_TILE_DATUMS),
}).meta({ id: 'MapSettings' });
export type MapSettings = z.infer<typeof mapSettingsSchema>;

/** The public GET /config answer: the stored site configuration and the map settings. */
export const publicConfigSchema = siteConfigSchema.extend({ map: mapSettingsSchema }).meta({ id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof publicConfigSchema>;
