import { MAP_LIMITS, type EndpointParsedQuery, type MapPositions, type mapApi } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { scopeOf } from '../../lib/scope.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as repo from './map.repo.js';

type PositionsQuery = EndpointParsedQuery<typeof mapApi.positions>;

/**
 * The fleet and project maps (issue #35): where the caller's devices are, scoped like the device
 * list (its subtree and the projects it sees), in columns so that 50,000 devices stay one compact
 * answer (decision 0030).
 */
export class MapService {
  constructor(private readonly db: Db) {}

  async positions(ctx: AuthContext, q: PositionsQuery): Promise<MapPositions> {
    const columns = await repo.positions(this.db, scopeOf(ctx), q, MAP_LIMITS.devices + 1);
    const truncated = columns.ids.length > MAP_LIMITS.devices;
    if (truncated) for (const list of Object.values(columns)) list.length = MAP_LIMITS.devices;
    const named = await repo.names(this.db, [...new Set(columns.project)].filter((id) => id !== 0), [...new Set(columns.type)]);
    return { ...columns, ...named, truncated };
  }
}
