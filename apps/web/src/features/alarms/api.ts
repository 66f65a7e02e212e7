import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { alarmRoutes, deviceTypeRoutes, projectRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { currentLanguage } from '../../lib/i18n';
import { alarmKeys, deviceTypeKeys, projectKeys } from '../../lib/query-keys';

export type AlarmListParams = EndpointQuery<typeof alarmRoutes.list>;
export type AlarmFilters = Omit<AlarmListParams, 'page' | 'limit' | 'sort' | 'order'>;
export type AlarmProcessBody = EndpointBody<typeof alarmRoutes.process>;

export function useAlarmList(params: AlarmListParams) {
  return useQuery({
    queryKey: alarmKeys.list(params),
    queryFn: () => api(alarmRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmGroups(filters: AlarmFilters) {
  return useQuery({
    queryKey: alarmKeys.groups(filters),
    queryFn: () => api(alarmRoutes.groups, { query: filters }),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmBell(enabled: boolean) {
  return useQuery({
    queryKey: alarmKeys.bell,
    queryFn: () => api(alarmRoutes.bell, {}),
    enabled,
  });
}

/** The SMS and calls of one alarm (its history), loaded when its row is opened. */
export function useAlarmNotices(alarmId: number) {
  return useQuery({
    queryKey: alarmKeys.notices(alarmId),
    queryFn: () => api(alarmRoutes.notices, { query: { alarmId } }),
  });
}

export function useProjectOptions() {
  const query = { page: 1, limit: 200, sort: 'name', order: 'asc' } as const;
  return useQuery({
    queryKey: projectKeys.list(query),
    queryFn: () => api(projectRoutes.list, { query }),
  });
}

/** The device types the caller may see, for the type filter (GET /user/devicetypelist). */
export function useTypeOptions() {
  return useQuery({
    queryKey: deviceTypeKeys.visible,
    queryFn: () => api(deviceTypeRoutes.visible),
    staleTime: 60_000,
  });
}

export function useProcessAlarms() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AlarmProcessBody) => api(alarmRoutes.process, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: alarmKeys.all }),
  });
}

export function exportAlarms(params: Omit<AlarmListParams, 'page' | 'limit'>) {
  return downloadFile(alarmRoutes.export, { ...params, lang: currentLanguage() }, 'alarms.xlsx');
}
