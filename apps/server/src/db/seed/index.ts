import crypto from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  BATTERY_MANAGEMENT_DEFAULT,
  PERMISSION_CODES,
  PERMISSIONS,
  SUPERADMIN,
  SUPERADMIN_ONLY,
  alarmRuleSchema,
  paramSchema,
  type PermissionCode,
} from '@iot/contract';
import type { Db } from '../client.js';
import {
  deviceTypeAlarms,
  deviceTypeParams,
  deviceTypes,
  menus,
  permissions,
  rolePermissions,
  roles,
  siteConfig,
  users,
} from '../schema/index.js';
import { BMU_ALARMS, BMU_PARAMS, BMU_TYPE, LEGACY_BMU_IDS } from './bmu.js';
import { hashPassword } from '../password.js';
import { MENU_SEED, MOVED_PERMISSIONS } from './menus.js';
import { SITE_DEFAULTS } from './site.js';

const ROLE_SEED = [
  { identification: SUPERADMIN, name: 'Super administrator' },
  { identification: 'ADMIN', name: 'Administrators' },
  { identification: 'BATTERYMANAGEMENT', name: 'Battery management' },
] as const;

function defaultGrant(role: string, code: PermissionCode): boolean {
  if (role === SUPERADMIN) return true;
  if (role === 'ADMIN') return !SUPERADMIN_ONLY.includes(code);
  return BATTERY_MANAGEMENT_DEFAULT.includes(code);
}

export interface SeedResult {
  /** Set only when the super administrator was created with a generated password. */
  generatedAdminPassword?: string;
  adminCreated: boolean;
}

/**
 * Idempotent seed: creates what is missing and never overwrites rows an administrator may have
 * edited (menus, role grants, site config). New permission codes are granted to the built-in
 * roles once, when they first appear.
 */
export async function seed(
  db: Db,
  opts: { adminUsername: string; adminPassword?: string },
): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    // Serialise concurrent starts against one PostgreSQL.
    await tx.execute(sql`select pg_advisory_xact_lock(727001)`);
    await seedCatalog(tx);
    return createAdmin(tx, opts);
  });
}

/**
 * What every install holds but its super administrator: roles, menus, permissions, the site
 * configuration, the built-in battery type. scripts/build-server.mjs writes it into the compiled
 * server's database template too (a first start then only checks it, as a later one does).
 */
export async function seedTemplate(db: Db): Promise<void> {
  await db.transaction(seedCatalog);
}

async function seedCatalog(tx: Tx): Promise<void> {
  await tx
    .insert(roles)
    .values(ROLE_SEED.map((r) => ({ ...r, builtin: true })))
    .onConflictDoNothing({ target: roles.identification });

  // Menus: parents first so children can point at them.
  for (const level of [false, true]) {
    const batch = MENU_SEED.filter((m) => Boolean(m.parent) === level);
    if (batch.length === 0) continue;
    const parentIds = new Map(
      (await tx.select({ id: menus.id, identification: menus.identification }).from(menus)).map(
        (m) => [m.identification, m.id],
      ),
    );
    await tx
      .insert(menus)
      .values(
        batch.map(({ parent, isShow, icon, ...m }) => ({
          ...m,
          icon: icon ?? '',
          isShow: isShow ?? 1,
          parentId: parent ? (parentIds.get(parent) ?? 0) : 0,
        })),
      )
      .onConflictDoNothing({ target: menus.identification });
  }

  const menuIds = new Map(
    (await tx.select({ id: menus.id, identification: menus.identification }).from(menus)).map(
      (m) => [m.identification, m.id],
    ),
  );
  for (const move of MOVED_PERMISSIONS) {
    const [from, to] = [menuIds.get(move.from), menuIds.get(move.to)];
    if (from === undefined || to === undefined) continue;
    await tx
      .update(permissions)
      .set({ menuId: to })
      .where(and(eq(permissions.identification, move.code), eq(permissions.menuId, from)));
  }

  const created = await tx
    .insert(permissions)
    .values(
      PERMISSION_CODES.filter((code) => menuIds.has(PERMISSIONS[code].menu)).map((code) => ({
        identification: code,
        name: PERMISSIONS[code].name,
        menuId: menuIds.get(PERMISSIONS[code].menu)!,
      })),
    )
    .onConflictDoNothing({ target: permissions.identification })
    .returning({ id: permissions.id, identification: permissions.identification });

  if (created.length > 0) {
    const roleRows = await tx
      .select({ id: roles.id, identification: roles.identification })
      .from(roles)
      .where(inArray(roles.identification, ROLE_SEED.map((r) => r.identification)));
    const grants = roleRows.flatMap((r) =>
      created
        .filter((p) => defaultGrant(r.identification, p.identification as PermissionCode))
        .map((p) => ({ roleId: r.id, permissionId: p.id })),
    );
    if (grants.length > 0) await tx.insert(rolePermissions).values(grants).onConflictDoNothing();
  }

  await tx.insert(siteConfig).values({ id: 1, data: SITE_DEFAULTS }).onConflictDoNothing();

  // The built-in battery management unit type, with its parameters and alarm rules, once.
  const [bmu] = await tx
    .insert(deviceTypes)
    .values({ ...BMU_TYPE, builtin: true, ownerPath: '/' })
    .onConflictDoNothing({ target: deviceTypes.code })
    .returning({ id: deviceTypes.id });
  if (bmu) {
    await tx.insert(deviceTypeParams).values(BMU_PARAMS.map((p) => ({ ...paramSchema.parse(p), typeId: bmu.id })));
    await tx.insert(deviceTypeAlarms).values(
      BMU_ALARMS.map((r) => {
        const rule = alarmRuleSchema.parse(r);
        return { ...rule, threshold: String(rule.threshold), typeId: bmu.id };
      }),
    );
  } else {
    await upgradeBuiltinBmu(tx);
  }
}

async function createAdmin(tx: Tx, opts: { adminUsername: string; adminPassword?: string }): Promise<SeedResult> {
  const existing = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.username, opts.adminUsername));
  if (existing.length > 0) return { adminCreated: false };

  const [superRole] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(eq(roles.identification, SUPERADMIN));
  const generated = opts.adminPassword ? undefined : generatePassword();
  const [admin] = await tx
    .insert(users)
    .values({
      username: opts.adminUsername,
      passwordHash: await hashPassword(opts.adminPassword ?? generated!),
      type: 0,
      roleId: superRole!.id,
      parentId: null,
    })
    .returning({ id: users.id });
  await tx
    .update(users)
    .set({ path: `/${admin!.id}/` })
    .where(eq(users.id, admin!.id));
  return { adminCreated: true, generatedAdminPassword: generated };
}

function generatePassword(): string {
  // 18 random bytes → 24 URL-safe characters; printed once in the start-up banner.
  return crypto.randomBytes(18).toString('base64url');
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * An install made before the built-in battery type followed the field's semaphore ids: when its
 * parameters are still exactly the old built-in set (same ids, same English names: the
 * administrator never changed them), they move to the new ids in place (rows, and so anything
 * referring to them, are kept), the parameters added since are inserted, and the type's alarm
 * rules follow the ids. A type an administrator edited is left alone. Values already stored
 * keep the ids they arrived with.
 */
async function upgradeBuiltinBmu(tx: Tx) {
  const [type] = await tx
    .select({ id: deviceTypes.id })
    .from(deviceTypes)
    .where(and(eq(deviceTypes.code, BMU_TYPE.code), eq(deviceTypes.builtin, true)));
  if (!type) return;
  const current = await tx
    .select({ semaphoreId: deviceTypeParams.semaphoreId, nameEn: deviceTypeParams.nameEn })
    .from(deviceTypeParams)
    .where(eq(deviceTypeParams.typeId, type.id));
  if (!current.some((p) => p.semaphoreId in LEGACY_BMU_IDS)) return; // already on the new ids
  const newToOld = new Map(Object.entries(LEGACY_BMU_IDS).map(([o, n]) => [n, o]));
  // The old built-in set: today's parameters under their old ids, without the ones added since.
  const legacy = new Map(
    BMU_PARAMS.filter((p) => newToOld.has(p.semaphoreId) || /^1000\d{4}$/.test(p.semaphoreId)).map((p) => [
      newToOld.get(p.semaphoreId) ?? p.semaphoreId,
      p.nameEn,
    ]),
  );
  const untouched = current.length === legacy.size && current.every((p) => legacy.get(p.semaphoreId) === p.nameEn);
  if (!untouched) return;
  const sortOf = new Map(BMU_PARAMS.map((p) => [p.semaphoreId, p.sort]));
  const moves = current.map((p) => {
    const to = LEGACY_BMU_IDS[p.semaphoreId] ?? p.semaphoreId;
    return { from: p.semaphoreId, to, sort: sortOf.get(to) ?? 0 };
  });
  // Two steps through temporary ids, so no new id meets an old one on the unique index.
  await tx.execute(sql`
    update device_type_params t set semaphore_id = '~' || m.to_id, sort = m.sort
    from json_to_recordset(${JSON.stringify(moves.map((m) => ({ from_id: m.from, to_id: m.to, sort: m.sort })))}::json)
      as m(from_id text, to_id text, sort int)
    where t.type_id = ${type.id} and t.semaphore_id = m.from_id`);
  await tx.execute(sql`update device_type_params set semaphore_id = substr(semaphore_id, 2) where type_id = ${type.id} and semaphore_id like '~%'`);
  const have = new Set(moves.map((m) => m.to));
  const added = BMU_PARAMS.filter((p) => !have.has(p.semaphoreId));
  if (added.length > 0) {
    await tx.insert(deviceTypeParams).values(added.map((p) => ({ ...paramSchema.parse(p), typeId: type.id })));
  }
  const alarmMoves = Object.entries(LEGACY_BMU_IDS).map(([from_id, to_id]) => ({ from_id, to_id }));
  await tx.execute(sql`
    update device_type_alarms a set semaphore_id = m.to_id
    from json_to_recordset(${JSON.stringify(alarmMoves)}::json) as m(from_id text, to_id text)
    where a.type_id = ${type.id} and a.semaphore_id = m.from_id`);
}
