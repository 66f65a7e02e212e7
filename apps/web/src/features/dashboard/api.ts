import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LoginRecord, Page } from '@iot/contract';
import { http } from '../../lib/http';

/** The signed-in user's own login history, paged on the server. */
export function useLoginHistory(page: number, limit: number) {
  return useQuery({
    queryKey: ['user', 'logins', page, limit],
    queryFn: () => http.get<Page<LoginRecord>>('/user/logins', { params: { page, limit } }),
    placeholderData: keepPreviousData,
  });
}
