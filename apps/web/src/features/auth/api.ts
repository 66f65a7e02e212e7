import { useQuery } from '@tanstack/react-query';
import { authRoutes } from '@iot/contract/plain';
import { api } from '../../lib/api';
import { authKeys } from '../../lib/query-keys';

/** A fresh captcha challenge on every fetch (never cached). */
export function useCaptcha() {
  return useQuery({
    queryKey: authKeys.captcha,
    queryFn: () => api(authRoutes.captcha, { silent: true }),
    staleTime: 0,
    gcTime: 0,
  });
}
