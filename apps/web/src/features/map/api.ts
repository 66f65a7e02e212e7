import { useQuery } from '@tanstack/react-query';
import { mapRoutes } from '@iot/contract/plain';
import { api } from '../../lib/api';
import { mapKeys } from '../../lib/query-keys';

/**
 * The positions of the caller's devices on maps (all, or one project's): one answer, held until
 * the live channel says something changed (FleetMapPage), never refetched on focus.
 */
export function usePositions(projectId: number | undefined) {
  return useQuery({
    queryKey: mapKeys.positions(projectId),
    queryFn: () => api(mapRoutes.positions, { query: projectId === undefined ? {} : { projectId } }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
