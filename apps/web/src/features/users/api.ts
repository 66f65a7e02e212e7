import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { roleApi, userAdminApi, type EndpointBody, type EndpointData, type EndpointQuery, type UserKind } from '@iot/contract';
import { api } from '../../lib/api';

export type UserListParams = Omit<EndpointQuery<typeof userAdminApi.list>, 'kind'>;
export type UserSort = NonNullable<UserListParams['sort']>;
export type UserFilters = Pick<UserListParams, 'username' | 'roleId' | 'enabled'>;
export type RoleOption = EndpointData<typeof roleApi.options>[number];
export type UserCreateInput = EndpointBody<typeof userAdminApi.add>;
export type UserEditInput = EndpointBody<typeof userAdminApi.edit>;

export const userKeys = {
  all: ['users'] as const,
  list: (kind: UserKind, params: UserListParams) => ['users', 'list', kind, params] as const,
  roleOptions: ['users', 'role-options'] as const,
  options: (q: string, limit: number) => ['users', 'options', q, limit] as const,
};

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
    queryKey: userKeys.roleOptions,
    queryFn: () => api(roleApi.options),
    enabled,
  });
}

/**
 * Users of the caller's subtree whose name contains `q` (parent-user and project-user pickers).
 * Only for callers holding one of USER_PICKER_PERMISSIONS (`enabled`): others would get 403.
 * `silent`: a picker that cannot search offers only the users it already knows.
 */
export function useUserOptions(q: string, enabled: boolean, { limit = 20, silent = false } = {}) {
  const text = q.trim();
  return useQuery({
    queryKey: userKeys.options(text, limit),
    queryFn: () => api(userAdminApi.options, { query: { q: text, limit }, silent }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export const createUser = (body: UserCreateInput) => api(userAdminApi.add, { body });
export const editUser = (body: UserEditInput) => api(userAdminApi.edit, { body });
export const deleteUser = (id: number) => api(userAdminApi.remove, { query: { id } });
export const resetPassword = (id: number, password: string) => api(userAdminApi.resetPassword, { body: { id, password } });
export const unlockUser = (id: number) => api(userAdminApi.unlock, { body: { id } });
