import { and, asc, eq, gt, ilike, inArray, isNull, like, or, sql, type SQL } from 'drizzle-orm';
import type { EndpointParsedQuery, deviceApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { devicePresence, deviceTypes, devices, projects } from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';
import { fewMatches, keysetList, keysetOrder, keysetValue, type Keyset } from '../../lib/query/keyset.js';

export { visibleDevices } from '../../lib/query/visibility.js';
import { visibleDevices } from '../../lib/query/visibility.js';
import { deviceTextLike } from '../../lib/query/filters.js';

const columns = {
  id: devices.id,
  name: devices.name,
  sn: devices.sn,
  typeId: devices.typeId,
  typeName: deviceTypes.name,
  typeNameEn: deviceTypes.nameEn,
  typeNameEs: deviceTypes.nameEs,
  typeNameJa: deviceTypes.nameJa,
  projectId: devices.projectId,
  projectName: projects.name,
  projectOwnerPath: projects.ownerPath,
  ownerPath: devices.ownerPath,
  parentId: devices.parentId,
  address: devices.address,
  mapMode: devices.mapMode,
  lng: devices.lng,
  lat: devices.lat,
  remarks: devices.remarks,
  alarmPhone: devices.alarmPhone,
  warningLevel: devices.warningLevel,
  btCode: devices.btCode,
  version4g: devices.version4g,
  hardwareVersion: devices.hardwareVersion,
  simNumber: devices.simNumber,
  imei: devices.imei,
  manufacturerModel: devices.manufacturerModel,
  description: devices.description,
  enabled: devices.enabled,
  online: devices.online,
  lastSeenAt: devicePresence.lastSeenAt,
  camera: devices.camera,
  cameraSerial: devices.cameraSerial,
  reportedInfo: devices.reportedInfo,
  createdAt: devices.createdAt,
  updatedAt: devices.updatedAt,
  subCount: sql<number>`(select count(*)::int from devices s where s.parent_id = devices.id)`,
};
export type DeviceRow = Awaited<ReturnType<typeof findDevices>>[number];

/** GET /device/list's validated query, scoped to the caller's subtree. */
export type DeviceFilter = EndpointParsedQuery<typeof deviceApi.list> & { scopePath?: string };

/** The list's conditions. */
function filterOf(f: Omit<DeviceFilter, 'sort' | 'order' | 'page' | 'limit'>) {
  const q = f.q ? `%${escapeLike(f.q)}%`.toLowerCase() : undefined;
  return and(
    visibleDevices(f.scopePath),
    f.projectId ? eq(devices.projectId, f.projectId) : undefined,
    f.typeId ? eq(devices.typeId, f.typeId) : undefined,
    f.online === undefined ? undefined : eq(devices.online, f.online),
    f.enabled === undefined ? undefined : eq(devices.enabled, f.enabled),
    f.warningLevel === undefined ? undefined : eq(devices.warningLevel, f.warningLevel),
    f.alarming === undefined ? undefined : f.alarming ? gt(devices.warningLevel, 0) : eq(devices.warningLevel, 0),
    f.parentId ? eq(devices.parentId, f.parentId) : undefined,
    f.topLevel ? isNull(devices.parentId) : undefined,
    q ? deviceTextLike(q) : undefined,
  );
}

/**
 * The list's order as a keyset (its ORDER BY and `after` / `next`): the sort column, then the id.
 * "Last seen" is `device_presence`'s, in the order of its index: newest first with never-seen
 * devices last, or the reverse (the stalest first).
 */
function keysetOf(f: Pick<DeviceFilter, 'sort' | 'order'>): Keyset {
  const base = { sort: f.sort, order: f.order };
  switch (f.sort) {
    case 'lastSeenAt':
      return { ...base, column: devicePresence.lastSeenAt, id: devicePresence.deviceId, kind: 'timestamp', nulls: 'lastWhenDesc' };
    case 'createdAt':
    case 'updatedAt':
      return { ...base, column: devices[f.sort], id: devices.id, kind: 'timestamp' };
    case 'name':
    case 'sn':
      return { ...base, column: devices[f.sort], id: devices.id, kind: 'text' };
    case 'warningLevel':
    case 'id':
      return { ...base, column: devices[f.sort], id: devices.id, kind: 'integer' };
  }
}

/**
 * One page of devices and its capped total. Past the first page the page's ids are chosen first
 * (an index scan in the sort's order that skips `offset` entries without reading their rows),
 * then only those rows are joined to their type and project and given their child count: a
 * single query computed every skipped row's joins and sub-device count.
 * Sorted by last seen, the ids are always read first, along device_presence's index, each
 * checked against the filters through the devices' primary key; with a state filter, along that
 * state's range of the index.
 *
 * A filtered list (a search, a scoped caller, a state…) or the last-seen order first reads its
 * matches up to COUNT_CAP (`fewMatches`): when that many or fewer match, they are sorted, and only
 * the page's rows read.
 */
export async function listDevices(db: Executor, f: DeviceFilter) {
  const where = filterOf(f);
  const keyset = keysetOf(f);
  const byLastSeen = f.sort === 'lastSeenAt';
  const matches = (v: SQL) => sql`select ${devices.id} as id${v} from ${devices} where ${where ?? sql`true`}`;
  const state = byLastSeen && f.online !== undefined ? eq(devicePresence.online, f.online) : undefined;
  const list = await keysetList(db, keyset, f, {
    where,
    rows: (cond) =>
      db
        .select({ ...columns, keyset: keysetValue(keyset) })
        .from(devices)
        .innerJoin(deviceTypes, eq(deviceTypes.id, devices.typeId))
        .leftJoin(projects, eq(projects.id, devices.projectId))
        .leftJoin(devicePresence, eq(devicePresence.deviceId, devices.id))
        .where(cond),
    ids: (cond) =>
      byLastSeen
        ? db.select({ id: devices.id }).from(devicePresence).innerJoin(devices, eq(devices.id, devicePresence.deviceId)).where(and(cond, state))
        : db.select({ id: devices.id }).from(devices).where(cond),
    idsFirst: byLastSeen,
    matches: db.select({ one: sql`1` }).from(devices).where(where),
    // Any condition but "top-level" (the default view, half the fleet at least) may leave a few
    // devices scattered along the order's index; so may the presence order.
    few:
      byLastSeen || filterOf({ ...f, topLevel: undefined }) !== undefined
        ? () =>
            byLastSeen
              ? // Each match's last seen by key, once they are known to be few: a join hashed all
                // million presence rows for 6,000 matches.
                fewMatches(db, keyset, f, matches(sql``), sql`(select p.last_seen_at from device_presence p where p.device_id = m.id)`)
              : fewMatches(db, keyset, f, matches(sql`, ${keyset.column} as v`))
        : undefined,
  });
  // The rows keep their keyset: the answer is written from the DTO's fields only.
  return { total: list.total, exact: list.exact, next: list.next, items: list.rows as DeviceRow[] };
}

/** Which of `ids` the scope may see (live subscriptions). */
export async function visibleDeviceIds(db: Executor, ids: number[], scopePath: string | undefined): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(inArray(devices.id, ids), visibleDevices(scopePath)));
  return rows.map((r) => r.id);
}

export async function findDevices(db: Executor, ids: number[], scopePath: string | undefined) {
  if (ids.length === 0) return [];
  return db
    .select(columns)
    .from(devices)
    .innerJoin(deviceTypes, eq(deviceTypes.id, devices.typeId))
    .leftJoin(projects, eq(projects.id, devices.projectId))
    .leftJoin(devicePresence, eq(devicePresence.deviceId, devices.id))
    .where(and(inArray(devices.id, ids), visibleDevices(scopePath)));
}

/** Typeahead: name or SN starting with the text, visible to the caller. */
export async function searchDevices(db: Executor, scopePath: string | undefined, q: string, limit: number) {
  const prefix = `${escapeLike(q)}%`;
  return db
    .select({ id: devices.id, name: devices.name, sn: devices.sn })
    .from(devices)
    .where(and(visibleDevices(scopePath), deviceTextLike(`%${prefix}`), or(ilike(devices.sn, prefix), ilike(devices.name, prefix))))
    .orderBy(asc(devices.sn))
    .limit(limit);
}

/**
 * The navbar search: SN or name containing the text, visible to the caller; an exact SN first,
 * then SNs starting with it. The trigram index on `devices.search` answers the contains (the
 * list's own condition), the SN and name checks recheck its few rows.
 */
export async function findDevicesByText(db: Executor, scopePath: string | undefined, q: string, limit: number) {
  const text = q.toLowerCase();
  const contains = `%${escapeLike(text)}%`;
  return db
    .select({ id: devices.id, name: devices.name, sn: devices.sn })
    .from(devices)
    .where(
      and(
        visibleDevices(scopePath),
        deviceTextLike(contains),
        or(like(sql`lower(${devices.sn})`, contains), like(sql`lower(${devices.name})`, contains)),
      ),
    )
    .orderBy(
      sql`lower(${devices.sn}) = ${text} desc`,
      sql`lower(${devices.sn}) like ${`${escapeLike(text)}%`} desc`,
      asc(devices.sn),
    )
    .limit(limit);
}

export async function simHolders(db: Executor, numbers: string[]) {
  if (numbers.length === 0) return [];
  return db.select({ id: devices.id, sn: devices.sn, simNumber: devices.simNumber }).from(devices).where(inArray(devices.simNumber, numbers));
}

export async function snTaken(db: Executor, sn: string, exceptId?: number) {
  const [row] = await db.select({ id: devices.id }).from(devices).where(eq(devices.sn, sn));
  return Boolean(row && row.id !== exceptId);
}

export async function insertDevice(db: Executor, values: typeof devices.$inferInsert) {
  const [row] = await db.insert(devices).values(values).returning({ id: devices.id });
  return row!.id;
}

/** Several devices in one statement (the demo fleet's 50). */
export async function insertDevices(db: Executor, values: (typeof devices.$inferInsert)[]) {
  if (values.length === 0) return;
  await db.insert(devices).values(values);
}

export async function updateDevice(db: Executor, id: number, set: Partial<typeof devices.$inferInsert>) {
  await db
    .update(devices)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(devices.id, id));
}

/** Deletes devices; their sub-devices become top-level devices. */
export async function deleteDevices(db: Executor, ids: number[]) {
  await db.update(devices).set({ parentId: null }).where(inArray(devices.parentId, ids));
  await db.delete(devices).where(inArray(devices.id, ids));
}

/** Puts devices in a project (or none); `ownerPath` undefined: each keeps its owner. */
export async function moveDevices(db: Executor, ids: number[], projectId: number | null, ownerPath: string | undefined) {
  await db
    .update(devices)
    .set({ projectId, ...(ownerPath !== undefined ? { ownerPath } : {}), updatedAt: new Date() })
    .where(inArray(devices.id, ids));
}

/** Which of these SNs already exist. */
export async function existingSns(db: Executor, sns: string[]): Promise<Set<string>> {
  if (sns.length === 0) return new Set();
  const rows = await db
    .select({ sn: devices.sn })
    .from(devices)
    .where(sql`${devices.sn} = any(select jsonb_array_elements_text(${JSON.stringify(sns)}::jsonb))`);
  return new Set(rows.map((r) => r.sn));
}

export interface BulkDevice {
  sn: string;
  name: string;
  typeId: number;
  projectId: number | null;
  ownerPath: string;
  address: string;
  lng: number | null;
  lat: number | null;
  alarmPhone: string;
  btCode: string;
  version4g: string;
  hardwareVersion: string;
  simNumber: string;
  imei: string;
  manufacturerModel: string;
  remarks: string;
  description: string;
}

/**
 * Inserts many devices in one statement: one JSON parameter expanded by json_to_recordset, the
 * same on PGlite and PostgreSQL, and free of the bind-parameter limit of a giant VALUES list.
 */
export async function bulkInsertDevices(db: Executor, rows: BulkDevice[]) {
  if (rows.length === 0) return 0;
  const json = JSON.stringify(
    rows.map((r) => ({
      sn: r.sn, name: r.name, type_id: r.typeId, project_id: r.projectId, owner_path: r.ownerPath, address: r.address,
      lng: r.lng, lat: r.lat, alarm_phone: r.alarmPhone, bt_code: r.btCode,
      version_4g: r.version4g, hardware_version: r.hardwareVersion, sim_number: r.simNumber, imei: r.imei,
      manufacturer_model: r.manufacturerModel, remarks: r.remarks, description: r.description,
    })),
  );
  await db.execute(sql`
    insert into devices (sn, name, type_id, project_id, owner_path, address, lng, lat, alarm_phone,
      bt_code, version_4g, hardware_version, sim_number, imei, manufacturer_model, remarks, description)
    select sn, name, type_id, project_id, owner_path, address, lng, lat, alarm_phone,
      bt_code, version_4g, hardware_version, sim_number, imei, manufacturer_model, remarks, description
    from json_to_recordset(${json}::json) as x(sn text, name text, type_id int, project_id int, owner_path text,
      address text, lng float8, lat float8, alarm_phone text, bt_code text, version_4g text,
      hardware_version text, sim_number text, imei text, manufacturer_model text, remarks text, description text)`);
  return rows.length;
}

/** Devices for export with the list's filters, up to `max` rows. */
export async function exportDevices(db: Executor, f: Omit<DeviceFilter, 'page' | 'limit'>, max: number) {
  return db
    .select({
      name: devices.name, sn: devices.sn, typeCode: deviceTypes.code, projectName: projects.name, address: devices.address,
      lng: devices.lng, lat: devices.lat, alarmPhone: devices.alarmPhone, warningLevel: devices.warningLevel,
      btCode: devices.btCode, version4g: devices.version4g, hardwareVersion: devices.hardwareVersion,
      simNumber: devices.simNumber, imei: devices.imei, manufacturerModel: devices.manufacturerModel,
      remarks: devices.remarks, description: devices.description,
    })
    .from(devices)
    .innerJoin(deviceTypes, eq(deviceTypes.id, devices.typeId))
    .leftJoin(projects, eq(projects.id, devices.projectId))
    .leftJoin(devicePresence, eq(devicePresence.deviceId, devices.id))
    .where(filterOf(f))
    .orderBy(...keysetOrder(keysetOf(f)))
    .limit(max);
}
