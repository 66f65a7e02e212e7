import { z } from 'zod';
import { MAP_TILE_DATUMS } from './enums.js';
import { PATTERNS, SITE_LIMITS } from './limits.js';

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


const text = (max: number) => z.string().trim().max(max);
const localisedEdit = <K extends (typeof LOCALISED_SITE_FIELDS)[number]>(k: K, max: number, required = false) =>
  ({
    [k]: required ? text(max).min(1) : text(max),
    [`${k}En`]: required ? text(max).min(1) : text(max),
    [`${k}Es`]: text(max),
    [`${k}Ja`]: text(max),
  }) as Record<K | `${K}En` | `${K}Es` | `${K}Ja`, z.ZodString>;

/**
 * The logo: a path on this server (`/logo.svg`), an http(s) address, or an image of its own as a
 * data URL (PNG, JPEG, WebP or SVG; an SVG in an <img> runs no script). Empty: no logo.
 */
const logoSchema = z
  .string()
  .trim()
  .max(SITE_LIMITS.logo)
  .regex(PATTERNS.siteLogo, 'a path, an http(s) address or an image');

/** What the super administrator's site settings page stores (POST /site/config): every field. */
export const siteConfigEditSchema = z.object({
  ...localisedEdit('title', SITE_LIMITS.title, true),
  ...localisedEdit('company', SITE_LIMITS.company),
  ...localisedEdit('copyright', SITE_LIMITS.copyright),
  ...localisedEdit('address', SITE_LIMITS.address),
  logo: logoSchema,
  contactTel: text(SITE_LIMITS.tel).regex(PATTERNS.phone, 'digits, spaces and + ( ) - only'),
  email: z.union([z.literal(''), z.email('an e-mail address').max(SITE_LIMITS.email)]),
  particleLogo: hex,
  particleBackground: hex,
  particleButton: hex,
  particleFooter: hex,
}).strict();
export type SiteConfigEdit = z.input<typeof siteConfigEditSchema>;

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
