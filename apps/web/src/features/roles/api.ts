import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page, PermissionTreeNode, RoleDto } from '@iot/contract';
import { http, type QueryValue } from '../../lib/http';

export const roleKeys = {
  all: ['roles'] as const,
  list: (params: Record<string, QueryValue>) => ['roles', 'list', params] as const,
  permissions: (id: number) => ['roles', 'permissions', id] as const,
};

export interface RoleFilters {
  name?: string;
}

export function useRoleList(params: Record<string, QueryValue>) {
  return useQuery({
    queryKey: roleKeys.list(params),
    queryFn: () => http.get<Page<RoleDto>>('/role/getlist', { params }),
    placeholderData: keepPreviousData,
  });
}

export interface RolePermissionView {
  permissionIds: number[];
  tree: PermissionTreeNode[];
}

/** What the role holds and the tree of what the caller may grant. */
export function useRolePermissions(id: number | undefined) {
  return useQuery({
    queryKey: roleKeys.permissions(id ?? 0),
    queryFn: () => http.get<RolePermissionView>('/role/getpermission', { params: { id } }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

export interface RoleInput {
  name: string;
  identification: string;
}

export const createRole = (body: RoleInput) =>
  http.post<{ id: number }>('/role/add', body);
export const editRole = (body: RoleInput & { id: number }) =>
  http.post<null>('/role/edit', body);
export const deleteRole = (id: number) =>
  http.delete<null>('/role/delete', { params: { id } });
export const setRolePermissions = (id: number, permissionIds: number[]) =>
  http.post<null>('/role/setpermission', { id, permissionIds });
