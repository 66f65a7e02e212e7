import { lazy, Suspense, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useFeedbackHostWanted } from '../lib/feedback';
import { useSession } from '../lib/session';

/** antd's message and confirm host: loaded with the first session, never on the login page alone. */
const FeedbackHost = lazy(() => import('./AntdConfig'));

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          // The http client already reports failures; retrying would repeat the message. Data is
          // stale at once: a list opened again (another tab, back from an edit) is fetched anew,
          // while the cached rows show in the meantime.
          queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 },
          mutations: { retry: false },
        },
      }),
  );
  const { token } = useSession();
  const feedbackHost = useFeedbackHostWanted(Boolean(token));
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {feedbackHost && (
        <Suspense fallback={null}>
          <FeedbackHost />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}
