import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deviceRoutes, deviceTypeRoutes, projectRoutes } from '@iot/contract/plain';
import type { DeviceFields, EndpointBody, EndpointData, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { deviceKeys, deviceTypeKeys, projectKeys } from '../../lib/query-keys';

/** Filters, paging and sorting of GET /device/list (and of the export, without paging). */
export type DeviceListParams = EndpointQuery<typeof deviceRoutes.list>;
/** The list's filters as the screen holds them: the query's, with its coerced ids as numbers. */
export type DeviceFilters = Pick<DeviceListParams, 'projectId' | 'typeId' | 'online' | 'enabled' | 'warningLevel' | 'alarming' | 'q' | 'parentId'> & {
  projectId?: number;
  typeId?: number;
  warningLevel?: number;
  parentId?: number;
};
export type DeviceSort = NonNullable<DeviceListParams['sort']>;
/** The ingestion secret, shown once when a device is created or its secret regenerated. */
export type DeviceCredential = EndpointData<typeof deviceRoutes.credential>;

/**
 * The list shows top-level devices (each with its sub-device count, expandable) unless a text
 * search or a parent filter is given: then every matching device, sub-devices included.
 */
export const topLevelOf = (f: { q?: string; parentId?: unknown }): 'true' | undefined => (!f.q?.trim() && !f.parentId ? 'true' : undefined);

export function useDeviceList(params: DeviceListParams) {
  return useQuery({
    queryKey: deviceKeys.list(params),
    queryFn: () => api(deviceRoutes.list, { query: { ...params, q: params.q?.trim(), topLevel: topLevelOf(params) } }),
    placeholderData: keepPreviousData,
  });
}

export function useSubDevices(id: number, page: number, limit: number) {
  return useQuery({
    queryKey: deviceKeys.sub(id, page, limit),
    queryFn: () => api(deviceRoutes.subDevices, { query: { id, page, limit } }),
    placeholderData: keepPreviousData,
  });
}

/** Device types for pickers (GET /devicetype/typeoptionslist). */
export function useTypeOptions() {
  return useQuery({
    queryKey: deviceTypeKeys.options,
    queryFn: () => api(deviceTypeRoutes.options),
    staleTime: 60_000,
  });
}

/** Typeahead for the parent device (GET /device/seachList: SN or name prefix). */
export function useDeviceSearch(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: deviceKeys.search(text),
    queryFn: () => api(deviceRoutes.search, { query: { q: text, limit: 20 } }),
    enabled: text.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** One device (GET /device/basic), e.g. to name the current parent of the edited device. */
export function useDevice(id: number | null | undefined) {
  return useQuery({
    queryKey: deviceKeys.basic(id),
    queryFn: () => api(deviceRoutes.basic, { query: { id: id! } }),
    enabled: !!id,
  });
}

/** Invalidates every device query (lists, sub-devices, counts of projects). */
export function useInvalidateDevices() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: deviceKeys.all });
    void qc.invalidateQueries({ queryKey: projectKeys.all });
  };
}

/** Form submits report their own errors (next to the field when the server names one). */
export function useSaveDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: ({ id, fields }: { id?: number; fields: DeviceFields }) =>
      id
        ? api(deviceRoutes.edit, { body: { ...fields, id }, silent: true })
        : api(deviceRoutes.add, { body: fields, silent: true }),
    onSuccess: invalidate,
  });
}

export function useDeleteDevices() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (ids: number[]) => api(deviceRoutes.remove, { query: { id: ids.join(',') } }),
    onSuccess: invalidate,
  });
}

export function useMoveDevices() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (body: EndpointBody<typeof deviceRoutes.move>) => api(deviceRoutes.move, { body }),
    onSuccess: invalidate,
  });
}

export function useRegenerateSecret() {
  return useMutation({
    mutationFn: (id: number) => api(deviceRoutes.credential, { body: { id } }),
  });
}

/**
 * A project's name for a preset filter (GET /project/item). Silent: a user with device:list only
 * may not read projects; the filter then shows the bare id.
 */
export function useProjectName(id: number | undefined) {
  return useQuery({
    queryKey: projectKeys.item(id),
    queryFn: () => api(projectRoutes.item, { query: { id: id! }, silent: true }),
    enabled: !!id,
    select: (p) => p.name,
  });
}
