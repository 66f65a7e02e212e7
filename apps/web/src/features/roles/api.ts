import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { roleRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointData, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { roleKeys } from '../../lib/query-keys';

export type RoleListParams = EndpointQuery<typeof roleRoutes.list>;
export type RoleSort = NonNullable<RoleListParams['sort']>;
export type RoleFilters = Pick<RoleListParams, 'name'>;
export type RolePermissionView = EndpointData<typeof roleRoutes.permissions>;

export function useRoleList(params: RoleListParams) {
  return useQuery({
    queryKey: roleKeys.list(params),
    queryFn: () => api(roleRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

/** What the role holds and the tree of what the caller may grant. */
export function useRolePermissions(id: number | undefined) {
  return useQuery({
    queryKey: roleKeys.permissions(id ?? 0),
    queryFn: () => api(roleRoutes.permissions, { query: { id: id! } }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

export type RoleInput = EndpointBody<typeof roleRoutes.add>;

export const createRole = (body: RoleInput) => api(roleRoutes.add, { body });
export const editRole = (body: EndpointBody<typeof roleRoutes.edit>) => api(roleRoutes.edit, { body });
export const deleteRole = (id: number) => api(roleRoutes.remove, { query: { id } });
export const setRolePermissions = (id: number, permissionIds: number[]) =>
  api(roleRoutes.setPermissions, { body: { id, permissionIds } });
