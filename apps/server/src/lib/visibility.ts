import { like, or, sql, type SQL } from 'drizzle-orm';
import { devices } from '../db/schema/index.js';
import { escapeLike } from './sql.js';

/**
 * Devices a caller sees: owned in its subtree, or in a project it sees (owned in its subtree or
 * assigned to a user of it). Undefined scope: all. Shared by the device and alarm repositories.
 *
 * The projects are collected once into an array (an InitPlan), so both halves are index
 * conditions (`owner_path` prefix, `project_id = any(…)`) that PostgreSQL ORs as bitmaps; the
 * earlier correlated `exists` per device made every scoped list a full scan (235 ms at 100,000
 * devices).
 */
export function visibleDevices(scopePath: string | undefined): SQL | undefined {
  if (!scopePath) return undefined;
  const prefix = `${escapeLike(scopePath)}%`;
  return or(
    like(devices.ownerPath, prefix),
    sql`${devices.projectId} = any(array(select p.id from projects p where p.owner_path like ${prefix}
          or exists (select 1 from project_users pu join users u on u.id = pu.user_id
                     where pu.project_id = p.id and u.path like ${prefix})))`,
  );
}
