import { useEffect } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { homeRoutes, LiveType, userRoutes } from '@iot/contract/plain';
import { api } from '../../lib/api';
import { coalesce } from '../../lib/coalesce';
import { live } from '../../lib/live';
import { patchUser, sessionStore } from '../../lib/session';
import { homeKeys, profileKeys } from '../../lib/query-keys';
import type { DashboardStyle, Days, DeviceState } from './types';

/** The user's time zone: the trend's and the top 5's days are its local days. */
const tz = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The signed-in user's own login history, paged on the server. */
export function useLoginHistory(page: number, limit: number) {
  return useQuery({
    queryKey: profileKeys.logins(page, limit),
    queryFn: () => api(userRoutes.logins, { query: { page, limit } }),
    placeholderData: keepPreviousData,
  });
}

/** The headline cards: devices, projects, alarms and the stored style (GET /home/list). */
export function useHomeSummary(enabled = true) {
  return useQuery({ queryKey: homeKeys.summary, queryFn: () => api(homeRoutes.list, { query: { tz: tz() } }), enabled });
}

export function useLevelNum(enabled = true) {
  return useQuery({ queryKey: homeKeys.levels, queryFn: () => api(homeRoutes.levelNum, { query: { tz: tz() } }), enabled });
}

export function useAlarmTrend(days: Days, enabled = true) {
  const query = { days, tz: tz() };
  return useQuery({
    queryKey: homeKeys.trend(query),
    queryFn: () => api(homeRoutes.alarmNum, { query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useTop5(days: Days, enabled = true) {
  const query = { days, tz: tz() };
  return useQuery({
    queryKey: homeKeys.top5(query),
    queryFn: () => api(homeRoutes.top5, { query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useHomeDevices(state: DeviceState, page: number, limit: number, enabled = true) {
  const query = { state, page, limit };
  return useQuery({
    queryKey: homeKeys.devices(query),
    queryFn: () => api(homeRoutes.deviceList, { query }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useProjectList(enabled = true) {
  return useQuery({ queryKey: homeKeys.projects, queryFn: () => api(homeRoutes.projectList), enabled });
}

export function useBattery(days: Days) {
  const query = { days, tz: tz() };
  return useQuery({
    queryKey: homeKeys.battery(query),
    queryFn: () => api(homeRoutes.battery, { query }),
    placeholderData: keepPreviousData,
  });
}

export function useVoice(days: Days) {
  const query = { days, tz: tz() };
  return useQuery({
    queryKey: homeKeys.voice(query),
    queryFn: () => api(homeRoutes.voice, { query }),
    placeholderData: keepPreviousData,
  });
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
