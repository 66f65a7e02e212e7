import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { roleApi, userAdminApi, type EndpointBody, type EndpointData, type EndpointQuery, type UserKind } from '@iot/contract';
import { api } from '../../lib/api';
import { roleKeys, userKeys } from '../../lib/query-keys';

export type UserListParams = Omit<EndpointQuery<typeof userAdminApi.list>, 'kind'>;
export type UserSort = NonNullable<UserListParams['sort']>;
export type UserFilters = Pick<UserListParams, 'username' | 'roleId' | 'enabled'>;
export type RoleOption = EndpointData<typeof roleApi.options>[number];
export type UserCreateInput = EndpointBody<typeof userAdminApi.add>;
export type UserEditInput = EndpointBody<typeof userAdminApi.edit>;

export function useUserList(kind: UserKind, params: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(kind, params),
    queryFn: () => api(userAdminApi.list, { query: { ...params, kind } }),
    placeholderData: keepPreviousData,
  });
}

/** Roles the caller may give (also the role filter's options). */
export function useRoleOptions(enabled: boolean) {
  return useQuery({
    queryKey: roleKeys.options,
    queryFn: () => api(roleApi.options),
    enabled,
  });
}

export const createUser = (body: UserCreateInput) => api(userAdminApi.add, { body });
export const editUser = (body: UserEditInput) => api(userAdminApi.edit, { body });
export const deleteUser = (id: number) => api(userAdminApi.remove, { query: { id } });
export const resetPassword = (id: number, password: string) => api(userAdminApi.resetPassword, { body: { id, password } });
export const unlockUser = (id: number) => api(userAdminApi.unlock, { body: { id } });
