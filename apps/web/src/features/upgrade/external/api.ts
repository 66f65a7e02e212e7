import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { externalRoutes } from '@iot/contract/plain';
import type { EndpointBody, EndpointQuery } from '@iot/contract';
import { api } from '../../../lib/api';
import { externalKeys } from '../../../lib/query-keys';

export type ExternalListParams = EndpointQuery<typeof externalRoutes.list>;
export type ExternalSort = NonNullable<ExternalListParams['sort']>;
export type ExternalLogParams = EndpointQuery<typeof externalRoutes.logs>;

/** How often the upgrades refresh while the page is open: progress moves at each check-in. */
const UPGRADES_POLL_MS = 5000;

export function useExternalDevices(params: ExternalListParams) {
  return useQuery({
    queryKey: externalKeys.devices(params),
    queryFn: () => api(externalRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
  });
}

export function useExternalUpgrades(params: ExternalListParams) {
  return useQuery({
    queryKey: externalKeys.upgrades(params),
    queryFn: () => api(externalRoutes.upgrades, { query: params }),
    placeholderData: keepPreviousData,
    refetchInterval: UPGRADES_POLL_MS,
  });
}

/** A device's log: every event (`upgradeOnly`: the upgrade events of /external/loglist). */
export function useExternalLogs(params: ExternalLogParams & { deviceId?: number }, upgradeOnly: boolean, enabled: boolean) {
  return useQuery({
    queryKey: externalKeys.logs({ ...params, upgradeOnly }),
    queryFn: () => api(upgradeOnly ? externalRoutes.upgradeLogs : externalRoutes.logs, { query: params }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useVersionOptions(enabled: boolean) {
  return useQuery({ queryKey: externalKeys.versions, queryFn: () => api(externalRoutes.versionOptions), enabled });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: externalKeys.all });
}

export function useAddExternal() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: EndpointBody<typeof externalRoutes.add>) => api(externalRoutes.add, { body, silent: true }),
    onSuccess: invalidate,
  });
}

export function useDeleteExternal() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (ids: number[]) => api(externalRoutes.remove, { query: { id: ids.join(',') } }), onSuccess: invalidate });
}

export function useDeleteExternalLogs() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (query: EndpointQuery<typeof externalRoutes.removeLogs>) => api(externalRoutes.removeLogs, { query }),
    onSuccess: invalidate,
  });
}

export function useAssignExternal() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: EndpointBody<typeof externalRoutes.assign>) => api(externalRoutes.assign, { body, silent: true }),
    onSuccess: invalidate,
  });
}

export function useCancelExternal() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (ids: number[]) => api(externalRoutes.cancel, { body: { ids } }), onSuccess: invalidate });
}
