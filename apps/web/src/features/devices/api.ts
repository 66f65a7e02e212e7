import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceDto, DeviceFields, Page, ProjectDto } from '@iot/contract';
import { http, type QueryValue } from '../../lib/http';

/** Filters, paging and sorting of GET /device/list (and of the export, without paging). */
export interface DeviceFilters {
  projectId?: number;
  typeId?: number;
  online?: boolean;
  warningLevel?: number;
  q?: string;
  parentId?: number;
}

/**
 * The list shows top-level devices (each with its sub-device count, expandable) unless a text
 * search or a parent filter is given: then every matching device, sub-devices included.
 */
const topLevelOf = (f: DeviceFilters) => (!f.q?.trim() && !f.parentId ? 'true' : undefined);

export type DeviceSort = 'createdAt' | 'updatedAt' | 'name' | 'sn' | 'lastSeenAt' | 'warningLevel';

export interface DeviceListParams extends DeviceFilters {
  page: number;
  limit: number;
  sort: DeviceSort;
  order: 'asc' | 'desc';
}

export interface TypeOption {
  id: number;
  code: string;
  name: string;
}

export interface DeviceOption {
  id: number;
  name: string;
  sn: string;
}

export interface DeviceCredential {
  sn: string;
  secret: string;
}

/** Query string values of the list filters (undefined and '' are dropped by the http client). */
export function filterParams(f: DeviceFilters): Record<string, QueryValue> {
  return {
    projectId: f.projectId,
    typeId: f.typeId,
    online: f.online === undefined ? undefined : String(f.online),
    warningLevel: f.warningLevel,
    q: f.q?.trim(),
    parentId: f.parentId,
    topLevel: topLevelOf(f),
  };
}

const KEY = ['devices'] as const;

export function useDeviceList(params: DeviceListParams) {
  return useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: () =>
      http.get<Page<DeviceDto>>('/device/list', {
        params: { ...filterParams(params), page: params.page, limit: params.limit, sort: params.sort, order: params.order },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useSubDevices(id: number, page: number, limit: number) {
  return useQuery({
    queryKey: [...KEY, 'sub', id, page, limit],
    queryFn: () => http.get<Page<DeviceDto>>('/device/subdevicelist', { params: { id, page, limit } }),
    placeholderData: keepPreviousData,
  });
}

/** Device types for pickers (GET /devicetype/typeoptionslist). */
export function useTypeOptions() {
  return useQuery({
    queryKey: ['devicetypes', 'options'],
    queryFn: () => http.get<TypeOption[]>('/devicetype/typeoptionslist'),
    staleTime: 60_000,
  });
}

/** Projects for pickers, searched by name on the server (the first 50 matches). */
export function useProjectOptions(name: string) {
  return useQuery({
    queryKey: ['projects', 'options', name],
    queryFn: () =>
      http.get<Page<ProjectDto>>('/project/list', { params: { name: name.trim(), limit: 50, sort: 'name', order: 'asc' } }),
    placeholderData: keepPreviousData,
    select: (page) => page.items.map((p) => ({ id: p.id, name: p.name })),
  });
}

/** Typeahead for the parent device (GET /device/seachList: SN or name prefix). */
export function useDeviceSearch(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: [...KEY, 'search', text],
    queryFn: () => http.get<DeviceOption[]>('/device/seachList', { params: { q: text, limit: 20 } }),
    enabled: text.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** One device (GET /device/basic), e.g. to name the current parent of the edited device. */
export function useDevice(id: number | null | undefined) {
  return useQuery({
    queryKey: [...KEY, 'basic', id],
    queryFn: () => http.get<DeviceDto>('/device/basic', { params: { id } }),
    enabled: !!id,
  });
}

/** Invalidates every device query (lists, sub-devices, counts of projects). */
export function useInvalidateDevices() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: KEY });
    void qc.invalidateQueries({ queryKey: ['projects'] });
  };
}

/** Form submits report their own errors (next to the field when the server names one). */
export function useSaveDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: ({ id, fields }: { id?: number; fields: DeviceFields }) =>
      id
        ? http.post<null>('/device/edit', { ...fields, id }, { silent: true }).then(() => null)
        : http.post<DeviceCredential & { id: number }>('/device/add', fields, { silent: true }),
    onSuccess: invalidate,
  });
}

export function useDeleteDevices() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (ids: number[]) => http.delete<{ count: number }>('/device/delete', { params: { id: ids.join(',') } }),
    onSuccess: invalidate,
  });
}

export function useMoveDevices() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (body: { ids: number[]; projectId: number | null }) =>
      http.post<{ count: number }>('/device/editdevicelistproject', body),
    onSuccess: invalidate,
  });
}

export function useRegenerateSecret() {
  return useMutation({
    mutationFn: (id: number) => http.post<DeviceCredential>('/device/credential', { id }),
  });
}

/**
 * A project's name for a preset filter (GET /project/item). Silent: a user with device:list only
 * may not read projects; the filter then shows the bare id.
 */
export function useProjectName(id: number | undefined) {
  return useQuery({
    queryKey: ['projects', 'item', id],
    queryFn: () => http.get<ProjectDto>('/project/item', { params: { id }, silent: true }),
    enabled: !!id,
    select: (p) => p.name,
  });
}
