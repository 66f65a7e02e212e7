import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlarmRuleDto, AlarmRuleInput, DeviceTypeDto, Page, ParamDto, ParamInput } from '@iot/contract';
import { http, type QueryValue } from '../../lib/http';

/** Fields of the add/edit form (contract `deviceTypeCreateSchema`). */
export interface DeviceTypeFields {
  code: string;
  name: string;
  nameEn: string;
  nameEs: string;
  nameJa: string;
  remarks: string;
  recordTrack: boolean;
}

const KEY = ['devicetypes'] as const;
const keys = {
  list: (params: Record<string, QueryValue>) => [...KEY, 'list', params] as const,
  item: (id: number) => [...KEY, 'item', id] as const,
  params: (id: number) => [...KEY, 'params', id] as const,
  alarms: (id: number) => [...KEY, 'alarms', id] as const,
};

/** GET /devicetype/list: server-paged, filtered by name and code, sorted by the server. */
export function useDeviceTypeList(params: Record<string, QueryValue>) {
  return useQuery({
    queryKey: keys.list(params),
    queryFn: ({ signal }) => http.get<Page<DeviceTypeDto>>('/devicetype/list', { params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useDeviceType(id: number | undefined) {
  return useQuery({
    queryKey: keys.item(id ?? 0),
    queryFn: ({ signal }) => http.get<DeviceTypeDto>('/devicetype/item', { params: { id }, signal }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** The type's parameters, ordered by `sort`. */
export function useTypeParams(id: number | undefined) {
  return useQuery({
    queryKey: keys.params(id ?? 0),
    queryFn: ({ signal }) => http.get<ParamDto[]>('/devicetype/setparam', { params: { id }, signal }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** The type's alarm rules; `silent` when they are only read to warn (no error message). */
export function useTypeAlarms(id: number | undefined, { silent = false } = {}) {
  return useQuery({
    queryKey: keys.alarms(id ?? 0),
    queryFn: ({ signal }) => http.get<AlarmRuleDto[]>('/devicetype/setalarm', { params: { id }, signal, silent }),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

/** Every change touches counts shown in the list and the item: refresh the whole feature. */
function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: KEY });
}

/**
 * Saves a type. Failures are silent here: the form shows field errors where the server names a
 * field, and reports everything else itself.
 */
export function useSaveDeviceType() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: DeviceTypeFields & { id?: number }) =>
      body.id === undefined
        ? http.post<{ id: number }>('/devicetype/addtype', body, { silent: true })
        : http.post<null>('/devicetype/edittype', body, { silent: true }),
    onSuccess: invalidate,
  });
}

/** Deletes a type; a refusal (built in, in use) is reported by the caller. */
export function useDeleteDeviceType() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => http.delete<null>('/devicetype/deletetype', { params: { id }, silent: true }),
    onSuccess: invalidate,
  });
}

/** Replaces the whole parameter list of a type. */
export function useSaveParams() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { id: number; params: ParamInput[] }) =>
      http.post<null>('/devicetype/addsetparam', body, { silent: true }),
    onSuccess: invalidate,
  });
}

/** Replaces the whole rule list of a type. */
export function useSaveAlarms() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: { id: number; rules: AlarmRuleInput[] }) =>
      http.post<null>('/devicetype/addsetalarm', body, { silent: true }),
    onSuccess: invalidate,
  });
}
