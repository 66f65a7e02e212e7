import { useQuery } from '@tanstack/react-query';
import type { CaptchaInfo } from '@iot/contract';
import { http, requestEnvelope } from '../../lib/http';

/** A fresh captcha challenge on every fetch (never cached). */
export function useCaptcha() {
  return useQuery({
    queryKey: ['captcha'],
    queryFn: () => http.get<CaptchaInfo>('/login/captchaInfo', { silent: true }),
    staleTime: 0,
    gcTime: 0,
  });
}

export interface ChangePasswordInput {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Resolves with the server's own success message. */
/** Changes the caller's password; answers how many of its other sessions were ended. */
export async function changePassword(input: ChangePasswordInput): Promise<{ endedSessions: number }> {
  const res = await requestEnvelope<{ endedSessions: number } | null>('/user/changepassword', {
    method: 'POST',
    body: input,
    silent: true,
  });
  return { endedSessions: res.data?.endedSessions ?? 0 };
}
