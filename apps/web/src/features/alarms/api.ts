import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { alarmApi, deviceTypeApi, projectApi, type EndpointBody, type EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { currentLanguage } from '../../lib/i18n';
import { alarmKeys, deviceTypeKeys, projectKeys } from '../../lib/query-keys';

export type AlarmListParams = EndpointQuery<typeof alarmApi.list>;
export type AlarmFilters = Omit<AlarmListParams, 'page' | 'limit' | 'sort' | 'order'>;
export type AlarmProcessBody = EndpointBody<typeof alarmApi.process>;

export function useAlarmList(params: AlarmListParams) {
  return useQuery({
    queryKey: alarmKeys.list(params),
    queryFn: () => api(alarmApi.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmGroups(filters: AlarmFilters) {
  return useQuery({
    queryKey: alarmKeys.groups(filters),
    queryFn: () => api(alarmApi.groups, { query: filters }),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmBell(enabled: boolean) {
  return useQuery({
    queryKey: alarmKeys.bell,
    queryFn: () => api(alarmApi.bell, {}),
    enabled,
  });
}

export function useProjectOptions() {
  const query = { page: 1, limit: 200, sort: 'name', order: 'asc' } as const;
  return useQuery({
    queryKey: projectKeys.list(query),
    queryFn: () => api(projectApi.list, { query }),
  });
}

/** The device types the caller may see, for the type filter (GET /user/devicetypelist). */
export function useTypeOptions() {
  return useQuery({
    queryKey: deviceTypeKeys.visible,
    queryFn: () => api(deviceTypeApi.visible),
    staleTime: 60_000,
  });
}

export function useProcessAlarms() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AlarmProcessBody) => api(alarmApi.process, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: alarmKeys.all }),
  });
}

export function exportAlarms(params: Omit<AlarmListParams, 'page' | 'limit'>) {
  return downloadFile(alarmApi.export, { ...params, lang: currentLanguage() }, 'alarms.xlsx');
}
