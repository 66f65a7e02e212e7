import { and, asc, count, eq, inArray, like, sql } from 'drizzle-orm';
import { SUPERADMIN } from '@iot/contract';
import type { Executor } from '../db/client.js';
import { devices, deviceTypes, projects, roles, users } from '../db/schema/index.js';
// Exemption from the one-way imports (eslint.config.js): the demo's devices are handed to ingestion
// as ingestion's own device rows, so it selects ingestion's column set rather than a copy of it.
// eslint-disable-next-line no-restricted-imports -- see above
import { INGEST_DEVICE_COLUMNS } from '../telemetry/ingest.repo.js';

/** Whether the registry holds no device and no project yet (auto mode creates the demo only then). */
export async function registryEmpty(db: Executor): Promise<boolean> {
  const [d] = await db.select({ n: count() }).from(devices);
  const [p] = await db.select({ n: count() }).from(projects);
  return (d?.n ?? 0) === 0 && (p?.n ?? 0) === 0;
}

export async function findProjectByName(db: Executor, name: string) {
  const [row] = await db
    .select({ id: projects.id, lng: projects.lng, lat: projects.lat })
    .from(projects)
    .where(eq(projects.name, name))
    .orderBy(asc(projects.id))
    .limit(1);
  return row;
}

/** The owner of the demo: the configured administrator, else the first super administrator. */
export async function demoOwner(db: Executor, username: string) {
  const [byName] = await db.select({ id: users.id, path: users.path }).from(users).where(eq(users.username, username));
  if (byName) return byName;
  const [first] = await db
    .select({ id: users.id, path: users.path })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(roles.identification, SUPERADMIN))
    .orderBy(asc(users.id))
    .limit(1);
  return first;
}

export async function typeByCode(db: Executor, code: string) {
  const [row] = await db
    .select({ id: deviceTypes.id, recordTrack: deviceTypes.recordTrack })
    .from(deviceTypes)
    .where(eq(deviceTypes.code, code));
  return row;
}

export async function typeById(db: Executor, id: number) {
  const [row] = await db.select({ recordTrack: deviceTypes.recordTrack }).from(deviceTypes).where(eq(deviceTypes.id, id));
  return row;
}

/** The demo's devices: in its project, with its SN prefix; what ingestion needs of each. */
export async function demoDevices(db: Executor, projectId: number, snPrefix: string) {
  return db
    .select(INGEST_DEVICE_COLUMNS)
    .from(devices)
    .where(and(eq(devices.projectId, projectId), like(devices.sn, `${snPrefix}%`)))
    .orderBy(asc(devices.sn));
}

/** Which of these device ids still exist (devices may be deleted while the demo runs). */
export async function existingIds(db: Executor, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: devices.id }).from(devices).where(inArray(devices.id, ids));
  return new Set(rows.map((r) => r.id));
}

/** Serialises concurrent creators (several instances on one PostgreSQL), inside a transaction. */
export async function lockDemo(tx: Executor) {
  await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
}
