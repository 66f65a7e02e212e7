import { like, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { devices, firmwareVersions, projects } from '../../db/schema/index.js';
import { escapeLike } from '../sql.js';

/**
 * Rows owned by a line (`owner_path`) and optionally put in a project that a caller sees: owned
 * in its subtree, or in a project it sees (owned in its subtree or assigned to a user of it).
 * Undefined scope: all. Devices and SIM cards are scoped alike.
 *
 * The projects are collected once into an array (an InitPlan), so both halves are index
 * conditions (`owner_path` prefix, `project_id = any(…)`) that PostgreSQL ORs as bitmaps; the
 * earlier correlated `exists` per row made every scoped list a full scan.
 */
export function visibleOwned(ownerPath: AnyColumn, projectId: AnyColumn, scopePath: string | undefined): SQL | undefined {
  if (!scopePath) return undefined;
  const prefix = `${escapeLike(scopePath)}%`;
  return or(like(ownerPath, prefix), sql`${projectId} = any(array(${projectsSeen(prefix)}))`);
}

/** The project `projectId` is assigned to a user of the subtree matching `prefix` (project users). */
function assignedInSubtree(projectId: SQL | AnyColumn, prefix: string): SQL {
  return sql`exists (select 1 from project_users pu join users u on u.id = pu.user_id
                     where pu.project_id = ${projectId} and u.path like ${prefix})`;
}

/** The ids of the projects a caller whose subtree matches `prefix` (a LIKE pattern) sees. */
function projectsSeen(prefix: string): SQL {
  return sql`select p.id from projects p where p.owner_path like ${prefix} or ${assignedInSubtree(sql`p.id`, prefix)}`;
}

/** SQL: the ids of the projects a caller of `scopePath` sees (for `= any(array(…))`). */
export function projectsSeenBy(scopePath: string): SQL {
  return projectsSeen(`${escapeLike(scopePath)}%`);
}

/**
 * SQL: the ids of the projects shared with a user of the subtree of `scopePath` and owned outside
 * it — the projects whose rows a caller sees without owning them.
 */
export function sharedInProjects(scopePath: string): SQL {
  const prefix = `${escapeLike(scopePath)}%`;
  return sql`select p.id from projects p where p.owner_path not like ${prefix} and ${assignedInSubtree(sql`p.id`, prefix)}`;
}

/**
 * Projects a caller sees: owned by a user of its subtree, or assigned to one (project users).
 * Undefined scope (super administrator): all.
 */
export function visibleProjects(scopePath: string | undefined): SQL | undefined {
  if (!scopePath) return undefined;
  const prefix = `${escapeLike(scopePath)}%`;
  return or(like(projects.ownerPath, prefix), assignedInSubtree(projects.id, prefix));
}

/** Devices a caller sees (shared by the device, alarm and SIM card repositories). */
export function visibleDevices(scopePath: string | undefined): SQL | undefined {
  return visibleOwned(devices.ownerPath, devices.projectId, scopePath);
}

/**
 * Firmware versions a caller sees and may use: created in its subtree, or by a user above it (a
 * version is published downwards: `caller.path LIKE owner_path || '%'`). Paths are `/1/5/` (digits
 * and slashes), so the owner path needs no escaping as a pattern. Undefined scope: all.
 */
export function visibleVersions(scopePath: string | undefined): SQL | undefined {
  if (!scopePath) return undefined;
  return or(like(firmwareVersions.ownerPath, `${escapeLike(scopePath)}%`), sql`${scopePath} like ${firmwareVersions.ownerPath} || '%'`);
}

/**
 * SQL: the user of alias `u` may act (sign in, be mailed): its own flag, and no disabled user
 * above it (the ids of its materialised path). Disabling a user disables its subtree.
 */
export function userActive(alias: string): SQL {
  const u = sql.raw(alias);
  return sql`(${u}.enabled and not exists (select 1 from users anc
    where anc.id = any(string_to_array(trim(both '/' from ${u}.path), '/')::int[]) and not anc.enabled))`;
}
