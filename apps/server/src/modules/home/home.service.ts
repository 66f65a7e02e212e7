import {
  DASHBOARD_STYLES,
  HOME_LIMITS,
  type DashboardStyle,
  type EndpointParsedQuery,
  type HomeAlarmNum,
  type HomeDeviceRow,
  type HomeDeviceTotals,
  type HomeLevelNum,
  type HomeProjectList,
  type HomeSummary,
  type HomeTop5,
  type HomeVoice,
  type Page,
  type homeApi,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import { scopeOf } from '../../lib/scope.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as repo from './home.repo.js';

type PeriodQuery = EndpointParsedQuery<typeof homeApi.alarmNum>;
type DeviceListQuery = EndpointParsedQuery<typeof homeApi.deviceList>;

/**
 * The home dashboard (§1, §7 /home/*; issue #34). Every figure is counted by PostgreSQL in one
 * statement over an index (home.repo.ts), scoped like the device and alarm lists: the caller's
 * subtree and the projects it sees; the super administrator sees everything.
 */
export class HomeService {
  constructor(private readonly db: Db) {}

  async summary(ctx: AuthContext, tz: string): Promise<HomeSummary> {
    const scope = scopeOf(ctx);
    const [devices, projects, levels, style] = await Promise.all([
      repo.deviceTotals(this.db, scope),
      repo.projectCount(this.db, scope),
      repo.alarmLevels(this.db, scope, tz),
      repo.dashboardStyle(this.db, ctx.userId),
    ]);
    const sum = (k: 'today' | 'untreated' | 'total') => levels.reduce((n, l) => n + l[k], 0);
    return {
      devices,
      projects: { total: projects },
      alarms: { today: sum('today'), untreated: sum('untreated'), total: sum('total') },
      style: (DASHBOARD_STYLES as readonly string[]).includes(style) ? (style as DashboardStyle) : 'default',
    };
  }

  deviceTotals(ctx: AuthContext): Promise<HomeDeviceTotals> {
    return repo.deviceTotals(this.db, scopeOf(ctx));
  }

  async projectList(ctx: AuthContext): Promise<HomeProjectList> {
    const scope = scopeOf(ctx);
    const [total, items] = await Promise.all([
      repo.projectCount(this.db, scope),
      repo.projectList(this.db, scope, HOME_LIMITS.projects),
    ]);
    return { total, items };
  }

  async levelNum(ctx: AuthContext, tz: string): Promise<HomeLevelNum> {
    return { levels: await repo.alarmLevels(this.db, scopeOf(ctx), tz) };
  }

  async alarmNum(ctx: AuthContext, q: PeriodQuery): Promise<HomeAlarmNum> {
    return { days: await repo.alarmsPerDay(this.db, scopeOf(ctx), q.days, q.tz) };
  }

  top5(ctx: AuthContext, q: PeriodQuery): Promise<HomeTop5> {
    return repo.top5(this.db, scopeOf(ctx), q.days, q.tz, HOME_LIMITS.top);
  }

  deviceList(ctx: AuthContext, q: DeviceListQuery): Promise<Page<HomeDeviceRow>> {
    return repo.deviceList(this.db, scopeOf(ctx), q);
  }

  voice(ctx: AuthContext, q: PeriodQuery): Promise<HomeVoice> {
    return repo.voice(this.db, scopeOf(ctx), q.days, q.tz, HOME_LIMITS.recent);
  }
}
