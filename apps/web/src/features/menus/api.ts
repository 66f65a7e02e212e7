import { useQuery } from '@tanstack/react-query';
import { menuRoutes } from '@iot/contract/plain';
import type { EndpointBody } from '@iot/contract';
import { api } from '../../lib/api';
import { menuKeys } from '../../lib/query-keys';

/** The whole menu tree for management (not filtered by the caller's permissions). */
export function useMenuTree() {
  return useQuery({ queryKey: menuKeys.tree, queryFn: () => api(menuRoutes.tree) });
}

export function useMenuOptions(enabled = true) {
  return useQuery({
    queryKey: menuKeys.options,
    queryFn: () => api(menuRoutes.options),
    enabled,
  });
}

export type MenuInput = EndpointBody<typeof menuRoutes.add>;

export const createMenu = (body: MenuInput) => api(menuRoutes.add, { body });
export const editMenu = (body: EndpointBody<typeof menuRoutes.edit>) => api(menuRoutes.edit, { body });
export const deleteMenu = (id: number) => api(menuRoutes.remove, { query: { id } });
