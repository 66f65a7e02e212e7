import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deviceRoutes, deviceDetailRoutes, fenceRoutes, videoRoutes } from '@iot/contract/plain';
import type { EndpointQuery, FenceSet } from '@iot/contract';
import { api } from '../../../lib/api';
import { downloadFile } from '../../../lib/transfer';
import { deviceDetailKeys, deviceKeys } from '../../../lib/query-keys';

// /device/basic and /device/subdevicelist are the registry's routes (contract api/devices.ts).
export function useDeviceBasic(id: number | undefined) {
  return useQuery({
    queryKey: deviceKeys.basic(id),
    queryFn: () => api(deviceRoutes.basic, { query: { id: id! } }),
    enabled: !!id,
  });
}

export function useChildren(id: number, page: number, limit: number, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.sub(id, page, limit),
    queryFn: () => api(deviceRoutes.subDevices, { query: { id, page, limit } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useDisplayGroups(id: number) {
  return useQuery({
    queryKey: deviceDetailKeys.groups(id),
    queryFn: () => api(deviceDetailRoutes.displayGroups, { query: { id } }),
  });
}

export function useWritableParams(id: number, enabled: boolean) {
  return useQuery({
    queryKey: deviceDetailKeys.writable(id),
    queryFn: () => api(deviceDetailRoutes.setParamList, { query: { id } }),
    enabled,
  });
}

export function useCommands(id: number, page: number, limit: number) {
  return useQuery({
    queryKey: deviceDetailKeys.commands(id, page, limit),
    queryFn: () => api(deviceDetailRoutes.commands, { query: { id, page, limit } }),
    placeholderData: keepPreviousData,
  });
}

export function useSetParams() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: number; values: Record<string, string | number | boolean> }) =>
      api(deviceDetailRoutes.setParams, { body, silent: true }),
    onSuccess: (_cmd, body) => void qc.invalidateQueries({ queryKey: deviceDetailKeys.commandsOf(body.id) }),
  });
}

export type HistoryQuery = EndpointQuery<typeof deviceDetailRoutes.history>;
export function useHistory(q: HistoryQuery | undefined) {
  return useQuery({
    queryKey: deviceDetailKeys.history(q),
    queryFn: () => api(deviceDetailRoutes.history, { query: q! }),
    enabled: !!q,
    placeholderData: keepPreviousData,
  });
}

/** Where the history opens: the server knows when the device last sent (one read). */
export function useHistoryRange(id: number) {
  return useQuery({
    queryKey: deviceDetailKeys.historyRange(id),
    queryFn: () => api(deviceDetailRoutes.historyRange, { query: { id } }),
    // Asked once per visit of the tab: the range is a starting point, not live data.
    staleTime: 0,
    gcTime: 0,
  });
}

export type ChartQuery = EndpointQuery<typeof deviceDetailRoutes.chart>;
export function useChart(q: ChartQuery | undefined) {
  return useQuery({
    queryKey: deviceDetailKeys.chart(q),
    queryFn: () => api(deviceDetailRoutes.chart, { query: q! }),
    enabled: !!q,
    placeholderData: keepPreviousData,
  });
}

export type EnergyQuery = EndpointQuery<typeof deviceDetailRoutes.energy>;
export function useEnergy(q: EnergyQuery) {
  return useQuery({
    queryKey: deviceDetailKeys.energy(q),
    queryFn: () => api(deviceDetailRoutes.energy, { query: q }),
    placeholderData: keepPreviousData,
  });
}

export function exportHistory(q: EndpointQuery<typeof deviceDetailRoutes.historyExport>) {
  return downloadFile(deviceDetailRoutes.historyExport, q, `history.${q.format ?? 'xlsx'}`);
}

/** POST /getVideoH5Url: a playable address of the device's camera (video provider); the player shows refusals. */
export function useVideoUrl() {
  return useMutation({ mutationFn: (deviceId: number) => api(videoRoutes.h5Url, { body: { deviceId }, silent: true }) });
}

/** The device's geo-fences, newest first, each with its history (the server settles ended commands first). */
export function useFences(id: number, enabled = true) {
  return useQuery({
    queryKey: deviceDetailKeys.fences(id),
    queryFn: () => api(fenceRoutes.list, { query: { id } }),
    enabled,
  });
}

/** Set, remove or re-lock a geo-fence; the list is read again after each. */
export function useFenceCommand(deviceId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (a: { op: 'set'; body: FenceSet } | { op: 'close' | 'relock'; fenceId: number }) =>
      a.op === 'set'
        ? api(fenceRoutes.set, { body: a.body, silent: true })
        : api(a.op === 'close' ? fenceRoutes.close : fenceRoutes.relock, { body: { fenceId: a.fenceId }, silent: true }),
    onSettled: () => void qc.invalidateQueries({ queryKey: deviceDetailKeys.fences(deviceId) }),
  });
}
