import type {
  HomeAlarmNum,
  HomeDeviceTotals,
  HomeLevelNum,
  HomeProjectList,
  HomeSummary,
  HomeTop5,
  HomeVoice,
  EndpointParsedQuery,
  homeApi,
  Page,
  HomeDeviceRow,
} from '@iot/contract';
import type { AuthContext } from '../auth/auth.service.js';
import type { Db } from '../../db/client.js';

type PeriodQuery = EndpointParsedQuery<typeof homeApi.alarmNum>;
type DeviceListQuery = EndpointParsedQuery<typeof homeApi.deviceList>;

const notYet = (): never => {
  throw new Error('not built yet');
};

/** The home dashboard (§1, §7 /home/*): every figure counted by the database, scoped like the lists. */
export class HomeService {
  constructor(private readonly db: Db) {}

  summary(_ctx: AuthContext, _tz: string): Promise<HomeSummary> {
    return Promise.resolve(notYet());
  }
  deviceTotals(_ctx: AuthContext): Promise<HomeDeviceTotals> {
    return Promise.resolve(notYet());
  }
  projectList(_ctx: AuthContext): Promise<HomeProjectList> {
    return Promise.resolve(notYet());
  }
  levelNum(_ctx: AuthContext, _tz: string): Promise<HomeLevelNum> {
    return Promise.resolve(notYet());
  }
  alarmNum(_ctx: AuthContext, _q: PeriodQuery): Promise<HomeAlarmNum> {
    return Promise.resolve(notYet());
  }
  top5(_ctx: AuthContext, _q: PeriodQuery): Promise<HomeTop5> {
    return Promise.resolve(notYet());
  }
  deviceList(_ctx: AuthContext, _q: DeviceListQuery): Promise<Page<HomeDeviceRow>> {
    return Promise.resolve(notYet());
  }
  voice(_ctx: AuthContext, _q: PeriodQuery): Promise<HomeVoice> {
    return Promise.resolve(notYet());
  }
}
