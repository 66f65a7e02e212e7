import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { MenuOption, Page, PermissionDto } from '@iot/contract';
import { http, type QueryValue } from '../../lib/http';

export const permissionKeys = {
  all: ['permissions'] as const,
  list: (params: Record<string, QueryValue>) => ['permissions', 'list', params] as const,
  menuOptions: ['permissions', 'menuoptions'] as const,
};

export interface PermissionFilters {
  name?: string;
  identification?: string;
  menuId?: number;
}

export function usePermissionList(params: Record<string, QueryValue>) {
  return useQuery({
    queryKey: permissionKeys.list(params),
    queryFn: () => http.get<Page<PermissionDto>>('/permission/getlist', { params }),
    placeholderData: keepPreviousData,
  });
}

/** The menu tree to pick a permission's owning menu. */
export function usePermissionMenuOptions() {
  return useQuery({
    queryKey: permissionKeys.menuOptions,
    queryFn: () => http.get<MenuOption[]>('/permission/menuoptions'),
  });
}

export interface PermissionInput {
  name: string;
  identification: string;
  menuId: number;
}

export const createPermission = (body: PermissionInput) =>
  http.post<{ id: number }>('/permission/add', body);
export const editPermission = (body: PermissionInput & { id: number }) =>
  http.post<null>('/permission/edit', body);
export const deletePermission = (id: number) =>
  http.delete<null>('/permission/delete', { params: { id } });
