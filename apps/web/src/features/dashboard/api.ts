import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { homeRoutes, LiveType, userRoutes } from '@iot/contract/plain';
import { api } from '../../lib/api';
import { coalesce } from '../../lib/coalesce';
import { live } from '../../lib/live';
import { patchUser, sessionStore } from '../../lib/session';
import { homeKeys, profileKeys } from '../../lib/query-keys';
import type { DashboardStyle, Days, DeviceState } from './types';

/** The user's time zone: the trend's and the top 5's days are its local days. */
const tz = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * A figure fetched this recently is not asked again when its card mounts: the prefetched first
 * screen is used as it is. Live changes still refetch at once (invalidation ignores it).
 */
const FRESH_MS = 3000;

/** The dashboard's queries, one definition each: the hooks below and `prefetchDashboard` share them. */
const queries = {
  logins: (page: number, limit: number) =>
    queryOptions({ staleTime: FRESH_MS, queryKey: profileKeys.logins(page, limit), queryFn: () => api(userRoutes.logins, { query: { page, limit } }) }),
  summary: () => queryOptions({ staleTime: FRESH_MS, queryKey: homeKeys.summary, queryFn: () => api(homeRoutes.list, { query: { tz: tz() } }) }),
  levels: () => queryOptions({ staleTime: FRESH_MS, queryKey: homeKeys.levels, queryFn: () => api(homeRoutes.levelNum, { query: { tz: tz() } }) }),
  trend: (days: Days) => {
    const query = { days, tz: tz() };
    return queryOptions({ staleTime: FRESH_MS, queryKey: homeKeys.trend(query), queryFn: () => api(homeRoutes.alarmNum, { query }) });
  },
  top5: (days: Days) => {
    const query = { days, tz: tz() };
    return queryOptions({ staleTime: FRESH_MS, queryKey: homeKeys.top5(query), queryFn: () => api(homeRoutes.top5, { query }) });
  },
  devices: (state: DeviceState, page: number, limit: number) => {
    const query = { state, page, limit };
    return queryOptions({ staleTime: FRESH_MS, queryKey: homeKeys.devices(query), queryFn: () => api(homeRoutes.deviceList, { query }) });
  },
  projects: () => queryOptions({ staleTime: FRESH_MS, queryKey: homeKeys.projects, queryFn: () => api(homeRoutes.projectList) }),
  battery: (days: Days) => {
    const query = { days, tz: tz() };
    return queryOptions({ staleTime: FRESH_MS, queryKey: homeKeys.battery(query), queryFn: () => api(homeRoutes.battery, { query }) });
  },
  voice: (days: Days) => {
    const query = { days, tz: tz() };
    return queryOptions({ staleTime: FRESH_MS, queryKey: homeKeys.voice(query), queryFn: () => api(homeRoutes.voice, { query }) });
  },
};

/** The first screen's page sizes and period (the cards' initial state). */
export const FIRST_SCREEN = { days: 7 as Days, limit: 10 };

/**
 * Asks for the first screen's figures of `style` as soon as the session is known, while the
 * signed-in frame and this page's code still load: the cards then render from the cache instead
 * of starting their requests after their first render (issue #34, time to interactive).
 * `devices`: false when the address asks for another page or filter of the device card.
 */
export function prefetchDashboard(qc: QueryClient, style: DashboardStyle, devices: boolean): void {
  const { days, limit } = FIRST_SCREEN;
  void qc.prefetchQuery(queries.summary());
  void qc.prefetchQuery(queries.logins(1, limit));
  if (style === 'battery') void qc.prefetchQuery(queries.battery(days));
  else if (style === 'voice') void qc.prefetchQuery(queries.voice(days));
  else {
    void qc.prefetchQuery(queries.levels());
    void qc.prefetchQuery(queries.trend(days));
    void qc.prefetchQuery(queries.top5(days));
    void qc.prefetchQuery(queries.projects());
    if (devices) void qc.prefetchQuery(queries.devices('all', 1, limit));
  }
}

/** The signed-in user's own login history, paged on the server. */
export function useLoginHistory(page: number, limit: number) {
  return useQuery({ ...queries.logins(page, limit), placeholderData: keepPreviousData });
}

/** The headline cards: devices, projects, alarms and the stored style (GET /home/list). */
export function useHomeSummary(enabled = true) {
  return useQuery({ ...queries.summary(), enabled });
}

export function useLevelNum(enabled = true) {
  return useQuery({ ...queries.levels(), enabled });
}

export function useAlarmTrend(days: Days, enabled = true) {
  return useQuery({ ...queries.trend(days), placeholderData: keepPreviousData, enabled });
}

export function useTop5(days: Days, enabled = true) {
  return useQuery({ ...queries.top5(days), placeholderData: keepPreviousData, enabled });
}

export function useHomeDevices(state: DeviceState, page: number, limit: number, enabled = true) {
  return useQuery({ ...queries.devices(state, page, limit), placeholderData: keepPreviousData, enabled });
}

export function useProjectList(enabled = true) {
  return useQuery({ ...queries.projects(), enabled });
}

export function useBattery(days: Days) {
  return useQuery({ ...queries.battery(days), placeholderData: keepPreviousData });
}

export function useVoice(days: Days) {
  return useQuery({ ...queries.voice(days), placeholderData: keepPreviousData });
}

/** Saves the user's dashboard style (the profile's preferences route) and shows it at once. */
export function useSaveStyle() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (dashboardStyle: DashboardStyle) => api(userRoutes.preferences, { body: { dashboardStyle } }),
    onMutate: (dashboardStyle) => {
      const previous = sessionStore.get().user?.dashboardStyle;
      patchUser({ dashboardStyle });
      return { previous };
    },
    // Not stored: the switch goes back to the stored style (the http client said why).
    onError: (_err, _style, context) => {
      if (context?.previous) patchUser({ dashboardStyle: context.previous });
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: homeKeys.summary }),
  });
}

/** At most one refetch of the dashboard a second in this tab, however many messages arrive. */
export const HOME_REFRESH_MS = 1000;

/**
 * Live message 170 ("your dashboard's figures changed") refetches the dashboard's queries on
 * screen, coalesced to one refetch a second; nothing polls.
 */
export function useHomeLive() {
  const qc = useQueryClient();
  useEffect(() => {
    const refresh = coalesce(() => void qc.invalidateQueries({ queryKey: homeKeys.all }), HOME_REFRESH_MS);
    const off = live.subscribe((m) => {
      if (m.type === LiveType.HOME_CHANGED) refresh.trigger();
    });
    return () => {
      off();
      refresh.cancel();
    };
  }, [qc]);
}
