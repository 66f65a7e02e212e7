import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditRoutes, clientErrorRoutes } from '@iot/contract/plain';
import type { EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
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

export type ClientErrorParams = EndpointQuery<typeof clientErrorRoutes.list>;
export type ClientErrorFilters = Omit<ClientErrorParams, 'page' | 'limit' | 'order'>;

export function useClientErrors(params: ClientErrorParams) {
  return useQuery({
    queryKey: logKeys.clientErrors(params),
    queryFn: () => api(clientErrorRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

/** The filtered browser errors as an .xlsx download. */
export function exportClientErrors(query: EndpointQuery<typeof clientErrorRoutes.export>) {
  return downloadFile(clientErrorRoutes.export, query, 'browser-errors.xlsx');
}
