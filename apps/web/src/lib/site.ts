import { useQuery } from '@tanstack/react-query';
import type { Language, SiteConfig } from '@iot/contract';
import { http } from './http';
import { languageSuffix } from './i18n';

type LocalisedField = 'title' | 'company' | 'copyright' | 'address';

/** Site configuration (§1): titles, logo, company texts and login particle colours. */
export function useSiteConfig() {
  return useQuery({
    queryKey: ['site-config'],
    queryFn: () => http.get<SiteConfig>('/config', { silent: true }),
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
