import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DashboardStyle, Language, Page, UserDto, UserKind } from '@iot/contract';
import { http, type QueryValue } from '../../lib/http';

export const userKeys = {
  all: ['users'] as const,
  list: (kind: UserKind, params: Record<string, QueryValue>) => ['users', 'list', kind, params] as const,
  roleOptions: ['users', 'role-options'] as const,
  options: (q: string) => ['users', 'options', q] as const,
};

export interface UserFilters {
  username?: string;
  roleId?: number;
  enabled?: boolean;
}

export function useUserList(kind: UserKind, params: Record<string, QueryValue>) {
  return useQuery({
    queryKey: userKeys.list(kind, params),
    queryFn: () => http.get<Page<UserDto>>('/user/list', { params: { ...params, kind } }),
    placeholderData: keepPreviousData,
  });
}

export interface RoleOption {
  id: number;
  name: string;
  identification: string;
}

/** Roles the caller may give (also the role filter's options). */
export function useRoleOptions(enabled: boolean) {
  return useQuery({
    queryKey: userKeys.roleOptions,
    queryFn: () => http.get<RoleOption[]>('/role/getoptionslist'),
    enabled,
  });
}

export interface UserOption {
  id: number;
  name: string;
}

/** Parent-user picker: users of the caller's subtree whose name contains `q`. */
export function useUserOptions(q: string, enabled: boolean) {
  return useQuery({
    queryKey: userKeys.options(q),
    queryFn: () => http.get<UserOption[]>('/user/options', { params: { q, limit: 20 } }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

interface UserFields {
  type: 0 | 1;
  roleId: number;
  parentId?: number;
  corporateName: string;
  corporateAddress: string;
  contactNumber: string;
  dashboardStyle: DashboardStyle;
  language: Language;
  enabled: boolean;
}
export interface UserCreateInput extends UserFields {
  username: string;
  password: string;
}
export type UserEditInput = Partial<UserFields> & { id: number };

export const createUser = (body: UserCreateInput) =>
  http.post<{ id: number }>('/user/add', body);
export const editUser = (body: UserEditInput) =>
  http.post<null>('/user/edit', body);
export const deleteUser = (id: number) =>
  http.delete<null>('/user/delete', { params: { id } });
export const resetPassword = (id: number, password: string) =>
  http.post<null>('/user/repassword', { id, password });
export const unlockUser = (id: number) =>
  http.post<null>('/user/unlock', { id });
