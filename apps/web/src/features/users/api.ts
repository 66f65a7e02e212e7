import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { roleRoutes, userAdminRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointData, EndpointQuery, UserKind } from '@iot/contract';
import { api } from '../../lib/api';
import { roleKeys, userKeys } from '../../lib/query-keys';

export type UserListParams = Omit<EndpointQuery<typeof userAdminRoutes.list>, 'kind'>;
export type UserSort = NonNullable<UserListParams['sort']>;
export type UserFilters = Pick<UserListParams, 'username' | 'roleId' | 'enabled'>;
export type RoleOption = EndpointData<typeof roleRoutes.options>[number];
export type UserCreateInput = EndpointBody<typeof userAdminRoutes.add>;
export type UserEditInput = EndpointBody<typeof userAdminRoutes.edit>;

export function useUserList(kind: UserKind, params: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(kind, params),
    queryFn: () => api(userAdminRoutes.list, { query: { ...params, kind } }),
    placeholderData: keepPreviousData,
  });
}

/** Roles the caller may give (also the role filter's options). */
export function useRoleOptions(enabled: boolean) {
  return useQuery({
    queryKey: roleKeys.options,
    queryFn: () => api(roleRoutes.options),
    enabled,
  });
}

export const createUser = (body: UserCreateInput) => api(userAdminRoutes.add, { body });
export const editUser = (body: UserEditInput) => api(userAdminRoutes.edit, { body });
export const deleteUser = (id: number) => api(userAdminRoutes.remove, { query: { id } });
export const resetPassword = (id: number, password: string) => api(userAdminRoutes.resetPassword, { body: { id, password } });
export const unlockUser = (id: number) => api(userAdminRoutes.unlock, { body: { id } });
