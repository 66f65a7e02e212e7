import { useQuery } from '@tanstack/react-query';
import { authApi, userApi, type EndpointBody, type EndpointData } from '@iot/contract';
import { api } from '../../lib/api';

/** A fresh captcha challenge on every fetch (never cached). */
export function useCaptcha() {
  return useQuery({
    queryKey: ['captcha'],
    queryFn: () => api(authApi.captcha, { silent: true }),
    staleTime: 0,
    gcTime: 0,
  });
}

export type ChangePasswordInput = EndpointBody<typeof userApi.changePassword>;

/** Changes the caller's password; answers how many of its other sessions were ended. */
export async function changePassword(input: ChangePasswordInput): Promise<EndpointData<typeof userApi.changePassword>> {
  return api(userApi.changePassword, { body: input, silent: true });
}
