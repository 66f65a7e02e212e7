import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { campaignRoutes, deviceRoutes, deviceTypeRoutes, firmwareRoutes } from '@iot/contract/plain';
import type { CampaignDto, EndpointBody, EndpointQuery } from '@iot/contract';
import { api } from '../../lib/api';
import { campaignKeys, deviceKeys, deviceTypeKeys, firmwareKeys } from '../../lib/query-keys';
import { versionOption } from './campaign-rules';

export type CampaignListParams = EndpointQuery<typeof campaignRoutes.list>;
export type CampaignSort = NonNullable<CampaignListParams['sort']>;
export type TargetListParams = EndpointQuery<typeof campaignRoutes.devices>;
export type TargetSort = NonNullable<TargetListParams['sort']>;
export type CampaignStartBody = EndpointBody<typeof campaignRoutes.start>;

/** How often a running campaign's numbers are read again: bars move without a reload. */
export const LIVE_REFETCH_MS = 2000;

/** Refetch while the rows shown include a running campaign; stop once every one has ended. */
const whileRunning = (rows: readonly CampaignDto[] | undefined) => (rows?.some((c) => c.state === 'running') ? LIVE_REFETCH_MS : false);

export function useCampaignList(params: CampaignListParams) {
  return useQuery({
    queryKey: campaignKeys.list(params),
    queryFn: () => api(campaignRoutes.list, { query: params }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => whileRunning(q.state.data?.items),
  });
}

/** One campaign (the details drawer, opened from the list or from `?campaign=` in the address). */
export function useCampaign(id: number | undefined) {
  return useQuery({
    queryKey: campaignKeys.item(id ?? 0),
    queryFn: async () => {
      const page = await api(campaignRoutes.list, { query: { id: id!, limit: 1 } });
      return page.items.find((c) => c.id === id) ?? null;
    },
    enabled: !!id,
    refetchInterval: (q) => whileRunning(q.state.data ? [q.state.data] : undefined),
  });
}

/** A campaign's devices; `live` while the campaign runs. */
export function useCampaignTargets(campaignId: number | undefined, params: Omit<TargetListParams, 'campaignId'>, live: boolean) {
  const query = { ...params, campaignId: campaignId! };
  return useQuery({
    queryKey: campaignKeys.devices(campaignId ?? 0, query),
    queryFn: () => api(campaignRoutes.devices, { query }),
    enabled: !!campaignId,
    placeholderData: keepPreviousData,
    refetchInterval: live ? LIVE_REFETCH_MS : false,
  });
}

/** Every step of one device in a campaign, newest first. */
export function useTargetLog(campaignId: number, deviceId: number, live: boolean) {
  const query = { campaignId, deviceId, limit: 100, order: 'desc' } as const;
  return useQuery({
    queryKey: campaignKeys.logs(campaignId, query),
    queryFn: () => api(campaignRoutes.logs, { query }),
    refetchInterval: live ? LIVE_REFETCH_MS : false,
  });
}

/** Start a campaign, or (`dryRun`) count what it would target; the form reports refusals itself. */
export function useStartCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CampaignStartBody) => api(campaignRoutes.start, { body, silent: true }),
    onSuccess: (plan) => {
      if (plan.campaignId !== undefined) void qc.invalidateQueries({ queryKey: campaignKeys.all });
    },
  });
}

/** Cancel a campaign, or some of its devices. */
export function useCloseCampaign() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: EndpointBody<typeof campaignRoutes.close>) => api(campaignRoutes.close, { body }),
    onSuccess: (campaign) => {
      qc.setQueryData(campaignKeys.item(campaign.id), campaign);
      void qc.invalidateQueries({ queryKey: campaignKeys.all });
    },
  });
}

/** Device types for the target filter (GET /devicetype/typeoptionslist). */
export function useTypeOptions() {
  return useQuery({ queryKey: deviceTypeKeys.options, queryFn: () => api(deviceTypeRoutes.options), staleTime: 60_000 });
}

/** The device picker's typeahead (GET /device/seachList: SN or name prefix). */
export function useDeviceSearch(text: string) {
  return useQuery({
    queryKey: deviceKeys.search(text),
    queryFn: () => api(deviceRoutes.search, { query: { q: text, limit: 20 } }),
    enabled: text.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** Versions matching the typed text (name or software version), newest first, the first 50. */
export function useVersionOptions(q: string) {
  const query = { ...(q ? { q } : {}), page: 1, limit: 50 };
  return useQuery({
    queryKey: firmwareKeys.list(query),
    queryFn: () => api(firmwareRoutes.list, { query, silent: true }),
    select: (page) => page.items.map(versionOption),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
