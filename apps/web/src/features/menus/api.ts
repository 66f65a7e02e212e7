import { useQuery } from '@tanstack/react-query';
import type { MenuNode, MenuOption } from '@iot/contract';
import { http } from '../../lib/http';

export const menuKeys = {
  all: ['menus'] as const,
  tree: ['menus', 'tree'] as const,
  options: ['menus', 'options'] as const,
};

/** The whole menu tree for management (not filtered by the caller's permissions). */
export function useMenuTree() {
  return useQuery({ queryKey: menuKeys.tree, queryFn: () => http.get<MenuNode[]>('/menu/menutestlist') });
}

export function useMenuOptions(enabled = true) {
  return useQuery({
    queryKey: menuKeys.options,
    queryFn: () => http.get<MenuOption[]>('/menu/menutestoptionslist'),
    enabled,
  });
}

export interface MenuInput {
  parentId: number;
  name: string;
  nameEn: string;
  nameEs: string;
  nameJa: string;
  jumpType: 1 | 2;
  menuUrl: string;
  menuType: 0 | 1;
  sort: number;
  icon: string;
  identification: string;
  isShow: 0 | 1;
}

export const createMenu = (body: MenuInput) =>
  http.post<{ id: number }>('/menu/addmenutest', body);
export const editMenu = (body: MenuInput & { id: number }) =>
  http.post<null>('/menu/editmenutest', body);
export const deleteMenu = (id: number) =>
  http.delete<null>('/menu/deletemenutest', { params: { id } });
