import { endpoints, type EndpointSchemaTable } from '../endpoint.js';
import { homeRoutes } from '../routes/home.js';
import {
  homeAlarmNumSchema,
  homeBatterySchema,
  homeDevicePageSchema,
  homeDeviceListQuerySchema,
  homeDeviceTotalsSchema,
  homeLevelNumSchema,
  homePeriodQuerySchema,
  homeProjectListSchema,
  homeSummarySchema,
  homeTodayQuerySchema,
  homeTop5Schema,
  homeVoiceSchema,
} from '../home.js';

const tags = ['home'];

/** The schemas of `homeRoutes` (routes/home.ts). */
export const homeSchemas = {
  list: {
    tags,
    summary: 'The dashboard’s headline figures: devices by state, projects, alarms, the caller’s style',
    query: homeTodayQuerySchema,
    data: homeSummarySchema,
  },
  deviceTotals: { tags, summary: 'The caller’s devices by state', data: homeDeviceTotalsSchema },
  projectList: {
    tags,
    summary: 'The caller’s projects with the most devices (10), with online and alarming counts',
    data: homeProjectListSchema,
  },
  levelNum: {
    tags,
    summary: 'Alarms per level 1–4: untreated, started today, all',
    query: homeTodayQuerySchema,
    data: homeLevelNumSchema,
  },
  alarmNum: {
    tags,
    summary: 'Alarms started per local day and level over the last 7 or 30 days',
    query: homePeriodQuerySchema,
    data: homeAlarmNumSchema,
  },
  top5: {
    tags,
    summary: 'The 5 devices and 5 projects with the most alarms started in the period',
    query: homePeriodQuerySchema,
    data: homeTop5Schema,
  },
  deviceList: {
    tags,
    summary: 'The caller’s devices in one state (all, online, offline, alarming, offline in the last 24 h)',
    query: homeDeviceListQuerySchema,
    data: homeDevicePageSchema,
  },
  battery: {
    tags,
    summary: 'Battery devices: SOC distribution, charge states, energy per day, lowest SOC, hottest, cell imbalance',
    query: homePeriodQuerySchema,
    data: homeBatterySchema,
  },
  voice: {
    tags,
    summary: 'Phone alerting: devices with alarm phones, call-outs due, voice minutes left on their SIM cards',
    query: homePeriodQuerySchema,
    data: homeVoiceSchema,
  },
} satisfies EndpointSchemaTable;
export const homeApi = endpoints(homeRoutes, homeSchemas);
