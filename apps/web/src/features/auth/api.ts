import { useQuery } from '@tanstack/react-query';
import type { CaptchaInfo } from '@iot/contract';
import { http } from '../../lib/http';

/** A fresh captcha challenge on every fetch (never cached). */
export function useCaptcha() {
  return useQuery({
    queryKey: ['captcha'],
    queryFn: () => http.get<CaptchaInfo>('/login/captchaInfo', { silent: true }),
    staleTime: 0,
    gcTime: 0,
  });
}
