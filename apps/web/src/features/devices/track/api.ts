import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { trackRoutes } from '@iot/contract/plain';
import type { EndpointQuery } from '@iot/contract';
import { api } from '../../../lib/api';
import { downloadFile } from '../../../lib/transfer';
import { trackKeys } from '../../../lib/query-keys';

export type LocusQuery = EndpointQuery<typeof trackRoutes.locus>;

/** A device's track over a range (simplified on the server to `maxPoints`). */
export function useLocus(q: LocusQuery | undefined) {
  return useQuery({
    queryKey: trackKeys.locus(q),
    queryFn: () => api(trackRoutes.locus, { query: q! }),
    enabled: !!q,
    placeholderData: keepPreviousData,
    // Thousands of numbers per column: comparing them with the previous answer buys nothing.
    structuralSharing: false,
  });
}

/** Where the track opens: the last day that has fixes (asked once per visit). */
export function useLocusRange(id: number | undefined) {
  return useQuery({
    queryKey: trackKeys.range(id ?? 0),
    queryFn: () => api(trackRoutes.locusRange, { query: { id: id! } }),
    enabled: !!id,
    staleTime: 0,
    gcTime: 0,
  });
}

export function exportLocus(q: EndpointQuery<typeof trackRoutes.locusExport>) {
  return downloadFile(trackRoutes.locusExport, q, `track-${q.id}.${q.format ?? 'csv'}`);
}
