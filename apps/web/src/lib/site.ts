import { useQuery } from '@tanstack/react-query';
import { siteRoutes } from '@iot/contract/plain';
import type { Language, MapSettings, SiteConfig } from '@iot/contract';
import { api } from './api';
import { languageSuffix } from './i18n';
import { siteKeys } from './query-keys';

type LocalisedField = 'title' | 'company' | 'copyright' | 'address';

/** Site configuration (§1): titles, logo, company and contact texts and login particle colours. */
export function useSiteConfig() {
  return useQuery({
    queryKey: siteKeys.config,
    queryFn: () => api(siteRoutes.config, { silent: true }),
    staleTime: Infinity,
  });
}

/** A localised config text: `title` for zh, `titleEn`/`titleEs`/`titleJa` otherwise. */
export function siteText(
  config: SiteConfig | undefined,
  field: LocalisedField,
  lang: Language,
): string {
  if (!config) return '';
  const localized = config[`${field}${languageSuffix(lang)}`];
  return localized || config[`${field}En`] || config[field] || '';
}

/** How to reach the site's operator (§1): telephone and e-mail as stored, the address localised. */
export interface SiteContact {
  tel: string;
  address: string;
  email: string;
}

export function siteContact(config: SiteConfig | undefined, lang: Language): SiteContact {
  return {
    tel: config?.contactTel.trim() ?? '',
    address: siteText(config, 'address', lang).trim(),
    email: config?.email.trim() ?? '',
  };
}

/** A `tel:` address: digits and a leading +, as dialers want them; undefined when none is left. */
export function telHref(tel: string): string | undefined {
  const digits = tel.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return /\d/.test(digits) ? `tel:${digits}` : undefined;
}

/** A `mailto:` address for one plain address; undefined for anything else (no extra headers). */
export function mailtoHref(email: string): string | undefined {
  return /^[^\s@?&#/:]+@[^\s@?&#/:]+\.[^\s@?&#/:]+$/.test(email) ? `mailto:${email}` : undefined;
}

/** Drawn when the configuration cannot be read: the bundled outline, nothing from elsewhere. */
const OUTLINE_ONLY: MapSettings = { tileUrl: null, tileAttribution: '', tileDatum: 'wgs84' };

/** How maps are drawn (MAP_TILE_URL…); undefined while the configuration loads. */
export function useMapSettings(): MapSettings | undefined {
  const site = useSiteConfig();
  return site.data?.map ?? (site.isError ? OUTLINE_ONLY : undefined);
}
