import { and, asc, eq, getTableColumns, ilike, inArray, isNull, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { EndpointParsedQuery, deviceApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { devicePresence, deviceTypes, devices, projects } from '../../db/schema/index.js';
import { asValue, escapeLike, placeholders, type Bind } from '../../lib/sql.js';
import { countedInPage, idArray, listVersion, versionedPage, withResolved } from '../../lib/paging.js';
import { keysetOrder, keysetPage, keysetShapedRows, keysetValue, type Keyset } from '../../lib/keyset.js';

export { visibleDevices } from '../../lib/visibility.js';
import { scopeProjects, visibleDevices } from '../../lib/visibility.js';
import { deviceTextLike } from '../../lib/device-search.js';

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
  reportedInfo: devices.reportedInfo,
  createdAt: devices.createdAt,
  updatedAt: devices.updatedAt,
  subCount: sql<number>`(select count(*)::int from devices s where s.parent_id = devices.id)`,
};
export type DeviceRow = Awaited<ReturnType<typeof findDevices>>[number];

/** `column` of `table`'s row whose `key` is `ref`, as a scalar subquery decoded as the column. */
const byKey = <T>(column: AnyPgColumn, table: PgTable, key: AnyPgColumn, ref: AnyPgColumn) =>
  sql<T>`(select ${sql.identifier(column.name)} from ${table} where ${sql.identifier(key.name)} = ${ref})`.mapWith(column);
const deviceKeyOf = new Map(Object.entries(getTableColumns(devices)).map(([k, c]) => [c as unknown, k as keyof typeof devices.$inferSelect]));
/**
 * `columns` for a page read from `page`, a subquery of devices' own columns named "devices": what
 * other tables give is looked up by key (a scalar subquery each) instead of joined.
 */
function lookedUp(page: Record<keyof typeof devices.$inferSelect, unknown>) {
  const own = Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, deviceKeyOf.has(c) ? page[deviceKeyOf.get(c)!] : c])) as typeof columns;
  return {
    ...own,
    typeName: byKey<string>(deviceTypes.name, deviceTypes, deviceTypes.id, devices.typeId),
    typeNameEn: byKey<string>(deviceTypes.nameEn, deviceTypes, deviceTypes.id, devices.typeId),
    typeNameEs: byKey<string>(deviceTypes.nameEs, deviceTypes, deviceTypes.id, devices.typeId),
    typeNameJa: byKey<string>(deviceTypes.nameJa, deviceTypes, deviceTypes.id, devices.typeId),
    projectName: byKey<string | null>(projects.name, projects, projects.id, devices.projectId),
    projectOwnerPath: byKey<string | null>(projects.ownerPath, projects, projects.id, devices.projectId),
    lastSeenAt: byKey<Date | null>(devicePresence.lastSeenAt, devicePresence, devicePresence.deviceId, devices.id),
  };
}

/** GET /device/list's validated query, scoped to the caller's subtree. */
export type DeviceFilter = EndpointParsedQuery<typeof deviceApi.list> & { scopePath?: string };

/**
 * The list's conditions; with `placeholders()`'s bind, every value is a placeholder and the
 * conditions present (the bind's names and `topLevel`) are the query's shape.
 */
function filterOf(f: Omit<DeviceFilter, 'sort' | 'order' | 'page' | 'limit'>, bind: Bind = asValue, projectIds?: number[]) {
  const q = f.q ? `%${escapeLike(f.q)}%`.toLowerCase() : undefined;
  return and(
    visibleDevices(f.scopePath, bind, projectIds),
    f.projectId ? eq(devices.projectId, bind('projectId', f.projectId)) : undefined,
    f.typeId ? eq(devices.typeId, bind('typeId', f.typeId)) : undefined,
    f.online === undefined ? undefined : eq(devices.online, bind('online', f.online)),
    f.enabled === undefined ? undefined : eq(devices.enabled, bind('enabled', f.enabled)),
    f.warningLevel === undefined ? undefined : eq(devices.warningLevel, bind('warningLevel', f.warningLevel)),
    f.parentId ? eq(devices.parentId, bind('parentId', f.parentId)) : undefined,
    f.topLevel ? isNull(devices.parentId) : undefined,
    q ? deviceTextLike(bind('q', q)) : undefined,
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
 * One page of devices. The page's ids are chosen first (an index scan in the sort's order that
 * skips `offset` entries without reading their rows, or starts at `after`'s row), then only those
 * rows are joined to their type and project and given their child count: the old single query
 * computed every skipped row's joins and sub-device count, so page 4,000 cost 400 ms. The total
 * is counted up to the cap.
 *
 * The page and the count are built once per filter shape and sort, their values placeholders
 * (`runPrepared`): building their SQL was a fifth of the list's CPU.
 */
export async function listDevices(db: Executor, f: DeviceFilter) {
  const { bind, values, shape } = placeholders();
  // A scoped caller's projects are resolved apart, remembered with the devices' counter
  // (`withResolved`): the placeholder `scopeProjects` is given its value once they are known.
  const where = filterOf(f, bind, []);
  // A project's devices (the project's device list) by creation, or a device's sub-devices: an
  // index bounds the rows by the project or parent and gives them in order whatever its value, so
  // one plan fits every value (the other filters only drop rows of that one project or parent).
  // Not with a text search, whose best plan depends on how many devices the text matches.
  const anyValuePlan = !f.q && (f.parentId !== undefined || (f.projectId !== undefined && f.sort === 'createdAt'));
  const shaped = { db, shape: shape('devices', f.topLevel === true), values, anyValuePlan };
  const matches = (cond: SQL | undefined) => () => db.select({ one: sql`1` }).from(devices).where(cond);
  // Online and warning level change with what devices send; every other filter only with the
  // console's changes, which move the devices' list counter (`versionedPage`). A list filtered
  // by either counts its total inside the page's statement, as its column `total` (else null).
  const counted = f.online === undefined && f.warningLevel === undefined ? undefined : countedInPage(db, shaped, matches(where));
  const totalColumn = () => (counted ? counted.column() : sql<null>`null::int`);
  const keyset = keysetOf(f);
  const order = keysetOrder(keyset);
  // The page's ids as a subquery: in the sort's order, skipping `offset` or after the cursor's
  // run. Sorted by last seen, they are read along device_presence's index, each row checked
  // against the filters through the devices' primary key. One row more than the page: it only
  // tells whether more follow (`next`). The devices' list counter comes with the rows: a
  // remembered total still true needs no other query.
  const joined = (run: SQL | undefined, limit: Placeholder, offset: Placeholder) => {
    const ids = (
      f.sort === 'lastSeenAt'
        ? db.select({ id: devices.id }).from(devicePresence).innerJoin(devices, eq(devices.id, devicePresence.deviceId))
        : db.select({ id: devices.id }).from(devices)
    )
      .where(and(where, run))
      .orderBy(...order)
      .limit(limit)
      .offset(offset);
    return db
      .select({ ...columns, keyset: keysetValue(keyset), listVersion: listVersion('devices'), total: totalColumn() })
      .from(devices)
      .innerJoin(deviceTypes, eq(deviceTypes.id, devices.typeId))
      .leftJoin(projects, eq(projects.id, devices.projectId))
      .leftJoin(devicePresence, eq(devicePresence.deviceId, devices.id))
      .where(inArray(devices.id, sql`(select p.id from (${ids}) p)`))
      .orderBy(...order);
  };
  // The first rows, or those after a cursor (not by last seen, which is device_presence's): the
  // filtered, ordered, limited rows of devices alone, then each row's type, project, last seen
  // and child count looked up by key. Joined, PostgreSQL spent more planning the query (1.2 ms:
  // join orders over tables with many indexes) than running it; as lookups 0.26 ms to plan and
  // 0.5 ms to run instead of 0.7. The subquery is named "devices": every column reads its rows.
  const lookups = (run: SQL | undefined, limit: Placeholder, offset: Placeholder) => {
    const rows = db.select(getTableColumns(devices)).from(devices).where(and(where, run)).orderBy(...order).limit(limit).offset(offset).as('devices');
    return db
      .select({ ...lookedUp(rows), keyset: keysetValue(keyset), listVersion: listVersion('devices'), total: totalColumn() })
      .from(rows)
      .orderBy(...order) as unknown as ReturnType<typeof joined>;
  };
  // A remembered page's rows by id (lib/keyset.ts remembered pages): no filter, one statement
  // with a generic plan for every list, value and page; its total is remembered apart.
  const byIds = (ids: SQL) => {
    const rows = db.select(getTableColumns(devices)).from(devices).where(sql`${devices.id} = any(${ids})`).as('devices');
    return db
      .select({ ...lookedUp(rows), keyset: keysetValue(keyset), listVersion: listVersion('devices'), total: sql<null>`null::int` })
      .from(rows)
      .orderBy(...order) as unknown as ReturnType<typeof joined>;
  };
  // After a remembered row (page anchors) the offset is short (the rows between it and the page),
  // and the rows it skips are read whole: lookups too, not planning the join.
  const page = (run: SQL | undefined, limit: Placeholder, offset: Placeholder, byOffset: boolean) =>
    (byOffset && run === undefined) || f.sort === 'lastSeenAt' ? joined(run, limit, offset) : lookups(run, limit, offset);
  // A page past the first starts at a remembered row (page anchors) when the list's order and
  // matches move only with the devices' counter: not filtered or sorted on what devices report,
  // nor sorted by last update (a device's address or remark changes it, not the counter).
  const anchored = !counted && f.sort !== 'updatedAt' && f.sort !== 'warningLevel' && f.sort !== 'lastSeenAt';
  // The statement's key names whether it counts (a total remembered as capped is not counted).
  const readRows = () =>
    withResolved(db, 'devices', scopeProjects(f.scopePath), ([projectIds]) => {
      if (projectIds) values.scopeProjects = idArray(projectIds);
      return keysetShapedRows(
        keyset,
        f,
        counted ? { ...shaped, shape: `${shaped.shape}\u0000${counted.capped}` } : shaped,
        page,
        anchored
          ? {
              key: `devices\u0000${shaped.shape}\u0000${JSON.stringify(values)}`,
              of: (r) => ({ version: r.listVersion, value: r.keyset, id: r.id }),
              byIds: { key: 'devices.page', rows: byIds },
            }
          : undefined,
      );
    });
  let rows: Awaited<ReturnType<typeof readRows>>;
  let total: { total: number; exact: boolean };
  if (counted) {
    rows = await readRows();
    total = await counted.of(rows);
  } else {
    [rows, total] = await versionedPage(db, 'devices', shaped, matches(filterOf(f)), readRows);
  }
  const result = keysetPage(keyset, rows, f.limit);
  // The rows keep their keyset and counter: the answer is written from the DTO's fields only.
  return { ...total, next: result.next, items: result.rows as DeviceRow[] };
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

export async function moveDevices(db: Executor, ids: number[], projectId: number | null) {
  await db.update(devices).set({ projectId, updatedAt: new Date() }).where(inArray(devices.id, ids));
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
