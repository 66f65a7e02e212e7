import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { permissionApi, type EndpointBody, type EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { permissionKeys } from '../../lib/query-keys';

export type PermissionListParams = EndpointQuery<typeof permissionApi.list>;
export type PermissionSort = NonNullable<PermissionListParams['sort']>;
export type PermissionFilters = Pick<PermissionListParams, 'name' | 'identification' | 'menuId'>;

export function usePermissionList(params: PermissionListParams) {
  return useQuery({
    queryKey: permissionKeys.list(params),
    queryFn: () => api(permissionApi.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

/** The menu tree to pick a permission's owning menu. */
export function usePermissionMenuOptions() {
  return useQuery({
    queryKey: permissionKeys.menuOptions,
    queryFn: () => api(permissionApi.menuOptions),
  });
}

export type PermissionInput = EndpointBody<typeof permissionApi.add>;

export const createPermission = (body: PermissionInput) => api(permissionApi.add, { body });
export const editPermission = (body: EndpointBody<typeof permissionApi.edit>) => api(permissionApi.edit, { body });
export const deletePermission = (id: number) => api(permissionApi.remove, { query: { id } });
