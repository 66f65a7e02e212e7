import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { userAdminRoutes } from '@iot/contract/plain';
import { api } from './api';
import { userKeys } from './query-keys';

/**
 * Users of the caller's subtree whose name contains `q` (parent-user and project-user pickers:
 * one hook, one contract type `UserOption`, shared by the user and project screens).
 * Only for callers holding one of USER_PICKER_PERMISSIONS (`enabled`): others would get 403.
 * `silent`: a picker that cannot search offers only the users it already knows.
 */
export function useUserOptions(q: string, enabled: boolean, { limit = 20, silent = false } = {}) {
  const text = q.trim();
  return useQuery({
    queryKey: userKeys.options(text, limit),
    queryFn: () => api(userAdminRoutes.options, { query: { q: text, limit }, silent }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
