import { useCallback, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';

/**
 * Search buttons always fetch. New filters fetch by themselves (they change the query key); the
 * same filters again mean "fetch now", so the page's active queries are refetched and a row
 * added elsewhere shows up. Call the returned function with the filters of every search.
 */
export function useRepeatSearch(initial: unknown = {}): (filters: unknown) => void {
  const queryClient = useQueryClient();
  const last = useRef(JSON.stringify(initial));
  return useCallback(
    (filters: unknown) => {
      const key = JSON.stringify(filters);
      if (key === last.current) void queryClient.invalidateQueries({ refetchType: 'active' });
      last.current = key;
    },
    [queryClient],
  );
}
