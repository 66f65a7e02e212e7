import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deviceTypeRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { deviceTypeKeys } from '../../lib/query-keys';

/** Fields of the add/edit form (contract `deviceTypeCreateSchema`). */
export type DeviceTypeFields = EndpointBody<typeof deviceTypeRoutes.add>;
export type DeviceTypeListParams = EndpointQuery<typeof deviceTypeRoutes.list>;
export type DeviceTypeSort = NonNullable<DeviceTypeListParams['sort']>;
export type DeviceTypeFilters = Pick<DeviceTypeListParams, 'name' | 'code'>;

/** GET /devicetype/list: server-paged, filtered by name and code, sorted by the server. */
export function useDeviceTypeList(params: DeviceTypeListParams) {
  return useQuery({
    queryKey: deviceTypeKeys.list(params),
    queryFn: ({ signal }) => api(deviceTypeRoutes.list, { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useDeviceType(id: number | undefined) {
  return useQuery({
    queryKey: deviceTypeKeys.item(id ?? 0),
    queryFn: ({ signal }) => api(deviceTypeRoutes.item, { query: { id: id! }, signal }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** The type's parameters, ordered by `sort`. */
export function useTypeParams(id: number | undefined) {
  return useQuery({
    queryKey: deviceTypeKeys.params(id ?? 0),
    queryFn: ({ signal }) => api(deviceTypeRoutes.params, { query: { id: id! }, signal }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** The type's alarm rules; `silent` when they are only read to warn (no error message). */
export function useTypeAlarms(id: number | undefined, { silent = false } = {}) {
  return useQuery({
    queryKey: deviceTypeKeys.alarms(id ?? 0),
    queryFn: ({ signal }) => api(deviceTypeRoutes.alarms, { query: { id: id! }, signal, silent }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** Every change touches counts shown in the list and the item: refresh the whole feature. */
function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: deviceTypeKeys.all });
}

/**
 * Saves a type. Failures are silent here: the form shows field errors where the server names a
 * field, and reports everything else itself.
 */
export function useSaveDeviceType() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...fields }: DeviceTypeFields & { id?: number }) =>
      id === undefined
        ? api(deviceTypeRoutes.add, { body: fields, silent: true })
        : api(deviceTypeRoutes.edit, { body: { ...fields, id }, silent: true }),
    onSuccess: invalidate,
  });
}

/** Deletes a type; a refusal (built in, in use) is reported by the caller. */
export function useDeleteDeviceType() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api(deviceTypeRoutes.remove, { query: { id }, silent: true }),
    onSuccess: invalidate,
  });
}

/** Replaces the whole parameter list of a type. */
export function useSaveParams() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: EndpointBody<typeof deviceTypeRoutes.setParams>) => api(deviceTypeRoutes.setParams, { body, silent: true }),
    onSuccess: invalidate,
  });
}

/** Replaces the whole rule list of a type. */
export function useSaveAlarms() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: EndpointBody<typeof deviceTypeRoutes.setAlarms>) => api(deviceTypeRoutes.setAlarms, { body, silent: true }),
    onSuccess: invalidate,
  });
}
