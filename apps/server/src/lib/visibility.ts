import { like, or, sql, type SQL } from 'drizzle-orm';
import { devices } from '../db/schema/index.js';
import { escapeLike } from './sql.js';

/**
 * Devices a caller sees: owned in its subtree, or in a project it sees (owned in its subtree or
 * assigned to a user of it). Undefined scope: all. Shared by the device and alarm repositories.
 */
export function visibleDevices(scopePath: string | undefined): SQL | undefined {
  if (!scopePath) return undefined;
  const prefix = `${escapeLike(scopePath)}%`;
  return or(
    like(devices.ownerPath, prefix),
    sql`exists (select 1 from projects p where p.id = ${devices.projectId} and (p.owner_path like ${prefix}
          or exists (select 1 from project_users pu join users u on u.id = pu.user_id
                     where pu.project_id = p.id and u.path like ${prefix})))`,
  );
}
