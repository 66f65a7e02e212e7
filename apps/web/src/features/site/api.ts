import { useQueryClient } from '@tanstack/react-query';
import { siteRoutes } from '@iot/contract/plain';
import type { SiteConfigEdit } from '@iot/contract';
import { api } from '../../lib/api';
import { siteKeys } from '../../lib/query-keys';

/** Stores the site settings (POST /site/config), then every screen reads them anew. */
export function useSaveSite() {
  const queryClient = useQueryClient();
  return async (body: SiteConfigEdit) => {
    await api(siteRoutes.update, { body, silent: true });
    await queryClient.invalidateQueries({ queryKey: siteKeys.config });
  };
}
