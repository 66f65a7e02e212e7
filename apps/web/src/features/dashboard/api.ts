import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { userRoutes } from '@iot/contract/plain';
import { api } from '../../lib/api';
import { profileKeys } from '../../lib/query-keys';

/** The signed-in user's own login history, paged on the server. */
export function useLoginHistory(page: number, limit: number) {
  return useQuery({
    queryKey: profileKeys.logins(page, limit),
    queryFn: () => api(userRoutes.logins, { query: { page, limit } }),
    placeholderData: keepPreviousData,
  });
}
