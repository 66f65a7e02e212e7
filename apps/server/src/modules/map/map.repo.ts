import { and, eq, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { devices, deviceTypes, projects } from '../../db/schema/index.js';
import { visibleDevices } from '../../lib/query/visibility.js';

export interface PositionFilter {
  projectId?: number;
  typeId?: number;
}

/** The devices of a map answer in columns (map.ts mapPositionsSchema), in id order. */
export interface PositionColumns {
  ids: number[];
  lng: number[];
  lat: number[];
  online: number[];
  level: number[];
  project: number[];
  type: number[];
}

/**
 * The devices a caller sees that belong on maps, by id, at most `limit`: a position, map mode
 * not 2, and no project or a project whose map is on. One statement: the scope is the device
 * list's (owner_path prefix or a project the caller sees, both index conditions), the few projects
 * with maps off are collected once (an InitPlan), and the project and type filters use their
 * indexes. Positions are rounded to 10⁻⁶ degrees (a decimetre), a third of the digits of a
 * double. PostgreSQL builds the columns as one JSON text: 50,000 rows handed to Node one by one
 * cost ten times more than one string (bench/map.ts, decision 0030).
 */
export async function positions(db: Executor, scopePath: string | undefined, f: PositionFilter, limit: number): Promise<PositionColumns> {
  const cond = and(
    isNotNull(devices.lng),
    isNotNull(devices.lat),
    ne(devices.mapMode, 2),
    or(
      isNull(devices.projectId),
      sql`${devices.projectId} <> all(array(select ${projects.id} from ${projects} where not ${projects.map}))`,
    ),
    visibleDevices(scopePath),
    f.projectId === undefined ? undefined : eq(devices.projectId, f.projectId),
    f.typeId === undefined ? undefined : eq(devices.typeId, f.typeId),
  );
  const result = await db.execute(sql`
    select json_build_object(
      'ids', coalesce(json_agg(d.id order by d.id), '[]'),
      'lng', coalesce(json_agg(d.lng order by d.id), '[]'),
      'lat', coalesce(json_agg(d.lat order by d.id), '[]'),
      'online', coalesce(json_agg(d.online order by d.id), '[]'),
      'level', coalesce(json_agg(d.level order by d.id), '[]'),
      'project', coalesce(json_agg(d.project order by d.id), '[]'),
      'type', coalesce(json_agg(d.type order by d.id), '[]'))::text as columns
    from (
      select ${devices.id} as id, round(${devices.lng}::numeric, 6) as lng, round(${devices.lat}::numeric, 6) as lat, ${devices.online}::int as online,
        ${devices.warningLevel} as level, coalesce(${devices.projectId}, 0) as project, ${devices.typeId} as type
      from ${devices} where ${cond} order by ${devices.id} limit ${limit}
    ) d`);
  return JSON.parse((result as unknown as { rows: { columns: string }[] }).rows[0]!.columns) as PositionColumns;
}

/** Names of projects and types by id (the few a map answer names). */
export async function names(db: Executor, projectIds: number[], typeIds: number[]) {
  const [p, t] = await Promise.all([
    projectIds.length === 0
      ? []
      : db.select({ id: projects.id, name: projects.name }).from(projects).where(inArray(projects.id, projectIds)),
    typeIds.length === 0
      ? []
      : db.select({ id: deviceTypes.id, name: deviceTypes.name }).from(deviceTypes).where(inArray(deviceTypes.id, typeIds)),
  ]);
  return { projects: p, types: t };
}
