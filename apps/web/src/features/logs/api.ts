import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditRoutes } from '@iot/contract/plain';
import type { EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { logKeys } from '../../lib/query-keys';

export type OperationLogParams = EndpointQuery<typeof auditRoutes.operations>;
export type OperationLogFilters = Omit<OperationLogParams, 'page' | 'limit' | 'order'>;
export type LoginLogParams = EndpointQuery<typeof auditRoutes.logins>;
export type LoginLogFilters = Omit<LoginLogParams, 'page' | 'limit' | 'order'>;

export function useOperationLogs(params: OperationLogParams) {
  return useQuery({
    queryKey: logKeys.operations(params),
    queryFn: () => api(auditRoutes.operations, { query: params }),
    placeholderData: keepPreviousData,
  });
}

export function useLoginLogs(params: LoginLogParams) {
  return useQuery({
    queryKey: logKeys.logins(params),
    queryFn: () => api(auditRoutes.logins, { query: params }),
    placeholderData: keepPreviousData,
  });
}
