import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { permissionRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { permissionKeys } from '../../lib/query-keys';

export type PermissionListParams = EndpointQuery<typeof permissionRoutes.list>;
export type PermissionSort = NonNullable<PermissionListParams['sort']>;
export type PermissionFilters = Pick<PermissionListParams, 'name' | 'identification' | 'menuId'>;

export function usePermissionList(params: PermissionListParams) {
  return useQuery({
    queryKey: permissionKeys.list(params),
    queryFn: () => api(permissionRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

/** The menu tree to pick a permission's owning menu. */
export function usePermissionMenuOptions() {
  return useQuery({
    queryKey: permissionKeys.menuOptions,
    queryFn: () => api(permissionRoutes.menuOptions),
  });
}

export type PermissionInput = EndpointBody<typeof permissionRoutes.add>;

export const createPermission = (body: PermissionInput) => api(permissionRoutes.add, { body });
export const editPermission = (body: EndpointBody<typeof permissionRoutes.edit>) => api(permissionRoutes.edit, { body });
export const deletePermission = (id: number) => api(permissionRoutes.remove, { query: { id } });
