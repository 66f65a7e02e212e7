import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditApi, deviceDataApi, type EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';

export type OperationLogParams = EndpointQuery<typeof auditApi.operations>;
export type OperationLogFilters = Omit<OperationLogParams, 'page' | 'limit' | 'order'>;
export type LoginLogParams = EndpointQuery<typeof auditApi.logins>;
export type LoginLogFilters = Omit<LoginLogParams, 'page' | 'limit' | 'order'>;
export type DeviceLogParams = EndpointQuery<typeof deviceDataApi.logs>;
export type DeviceLogFilters = Omit<DeviceLogParams, 'page' | 'limit' | 'deviceId'>;

export function useOperationLogs(params: OperationLogParams) {
  return useQuery({
    queryKey: ['logs', 'operation', params],
    queryFn: () => api(auditApi.operations, { query: params }),
    placeholderData: keepPreviousData,
  });
}

export function useLoginLogs(params: LoginLogParams) {
  return useQuery({
    queryKey: ['logs', 'login', params],
    queryFn: () => api(auditApi.logins, { query: params }),
    placeholderData: keepPreviousData,
  });
}

export function useDeviceLogs(params: DeviceLogParams) {
  return useQuery({
    queryKey: ['logs', 'device', params],
    queryFn: () => api(deviceDataApi.logs, { query: params }),
    placeholderData: keepPreviousData,
  });
}
