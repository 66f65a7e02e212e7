import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OperationLogDto, Page } from '@iot/contract';
import { http, type QueryValue } from '../../lib/http';

export interface LoginLogDto {
  id: number;
  username: string;
  result: string;
  ip: string;
  userAgent: string;
  createdAt: string;
}

export interface OperationLogFilters {
  username?: string;
  action?: string;
  entity?: string;
  result?: 'success' | 'failure';
  from?: string;
  to?: string;
}

export interface LoginLogFilters {
  username?: string;
  result?: string;
  from?: string;
  to?: string;
}

export function useOperationLogs(params: Record<string, QueryValue>) {
  return useQuery({
    queryKey: ['logs', 'operation', params],
    queryFn: () => http.get<Page<OperationLogDto>>('/logs/list', { params }),
    placeholderData: keepPreviousData,
  });
}

export function useLoginLogs(params: Record<string, QueryValue>) {
  return useQuery({
    queryKey: ['logs', 'login', params],
    queryFn: () => http.get<Page<LoginLogDto>>('/logs/loginlist', { params }),
    placeholderData: keepPreviousData,
  });
}
