import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { roleApi, type EndpointBody, type EndpointData, type EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { roleKeys } from '../../lib/query-keys';

export type RoleListParams = EndpointQuery<typeof roleApi.list>;
export type RoleSort = NonNullable<RoleListParams['sort']>;
export type RoleFilters = Pick<RoleListParams, 'name'>;
export type RolePermissionView = EndpointData<typeof roleApi.permissions>;

export function useRoleList(params: RoleListParams) {
  return useQuery({
    queryKey: roleKeys.list(params),
    queryFn: () => api(roleApi.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

/** What the role holds and the tree of what the caller may grant. */
export function useRolePermissions(id: number | undefined) {
  return useQuery({
    queryKey: roleKeys.permissions(id ?? 0),
    queryFn: () => api(roleApi.permissions, { query: { id: id! } }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

export type RoleInput = EndpointBody<typeof roleApi.add>;

export const createRole = (body: RoleInput) => api(roleApi.add, { body });
export const editRole = (body: EndpointBody<typeof roleApi.edit>) => api(roleApi.edit, { body });
export const deleteRole = (id: number) => api(roleApi.remove, { query: { id } });
export const setRolePermissions = (id: number, permissionIds: number[]) =>
  api(roleApi.setPermissions, { body: { id, permissionIds } });
