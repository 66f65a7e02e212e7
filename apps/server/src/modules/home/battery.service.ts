import { HOME_LIMITS, type EndpointParsedQuery, type HomeBattery, type homeApi } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { scopeOf } from '../../lib/scope.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as repo from './battery.repo.js';

type BatteryQuery = EndpointParsedQuery<typeof homeApi.battery>;

/**
 * The home dashboard's battery style (GET /home/battery, issue 34): the SOC histogram, the state
 * counts, the energy per local day and the lowest-SOC, hottest and least balanced packs of the
 * caller's subtree. Each part is one indexed statement (battery.repo.ts); they run side by side.
 */
export class HomeBatteryService {
  constructor(private readonly db: Db) {}

  async battery(ctx: AuthContext, q: BatteryQuery): Promise<HomeBattery> {
    const scope = scopeOf(ctx);
    const [counts, energy, lowestSoc, hottest, imbalance] = await Promise.all([
      repo.counts(this.db, scope),
      repo.energyPerDay(this.db, scope, q.days, q.tz),
      repo.top(this.db, scope, 'lowestSoc', HOME_LIMITS.top),
      repo.top(this.db, scope, 'hottest', HOME_LIMITS.top),
      repo.top(this.db, scope, 'imbalance', HOME_LIMITS.top),
    ]);
    const device = (d: repo.RankedDevice) => ({ id: d.id, name: d.name, sn: d.sn });
    return {
      soc: { buckets: counts.buckets, unknown: counts.socUnknown },
      states: { charging: counts.charging, discharging: counts.discharging, idle: counts.idle, unknown: counts.stateUnknown },
      energy,
      lowestSoc: lowestSoc.map((d) => ({ ...device(d), soc: d.value })),
      hottest: hottest.map((d) => ({ ...device(d), temperature: d.value })),
      imbalance: imbalance.map((d) => ({ ...device(d), deltaMv: d.value })),
    };
  }
}
