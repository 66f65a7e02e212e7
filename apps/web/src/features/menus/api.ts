import { useQuery } from '@tanstack/react-query';
import { menuApi, type EndpointBody } from '@iot/contract';
import { api } from '../../lib/api';
import { menuKeys } from '../../lib/query-keys';

/** The whole menu tree for management (not filtered by the caller's permissions). */
export function useMenuTree() {
  return useQuery({ queryKey: menuKeys.tree, queryFn: () => api(menuApi.tree) });
}

export function useMenuOptions(enabled = true) {
  return useQuery({
    queryKey: menuKeys.options,
    queryFn: () => api(menuApi.options),
    enabled,
  });
}

export type MenuInput = EndpointBody<typeof menuApi.add>;

export const createMenu = (body: MenuInput) => api(menuApi.add, { body });
export const editMenu = (body: EndpointBody<typeof menuApi.edit>) => api(menuApi.edit, { body });
export const deleteMenu = (id: number) => api(menuApi.remove, { query: { id } });
