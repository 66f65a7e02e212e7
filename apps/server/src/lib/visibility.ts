import { like, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { devices } from '../db/schema/index.js';
import { escapeLike } from './sql.js';

/**
 * Rows owned by a line (`owner_path`) and optionally put in a project that a caller sees: owned
 * in its subtree, or in a project it sees (owned in its subtree or assigned to a user of it).
 * Undefined scope: all. Devices and SIM cards are scoped alike.
 */
export function visibleOwned(ownerPath: AnyColumn, projectId: AnyColumn, scopePath: string | undefined): SQL | undefined {
  if (!scopePath) return undefined;
  const prefix = `${escapeLike(scopePath)}%`;
  return or(
    like(ownerPath, prefix),
    sql`exists (select 1 from projects p where p.id = ${projectId} and (p.owner_path like ${prefix}
          or exists (select 1 from project_users pu join users u on u.id = pu.user_id
                     where pu.project_id = p.id and u.path like ${prefix})))`,
  );
}

/** Devices a caller sees (shared by the device, alarm and SIM card repositories). */
export function visibleDevices(scopePath: string | undefined): SQL | undefined {
  return visibleOwned(devices.ownerPath, devices.projectId, scopePath);
}
