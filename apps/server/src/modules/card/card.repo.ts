import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, like, lte, or, sql, type SQL } from 'drizzle-orm';
import type { EndpointParsedQuery, cardApi } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { devices, projects, simCards, userEmails, users } from '../../db/schema/index.js';
import { escapeLike } from '../../lib/sql.js';
import { userActive, visibleDevices, visibleOwned } from '../../lib/query/visibility.js';
import { pageAndTotal, pageByIds } from '../../lib/query/paging.js';
import { deviceTextLike } from '../../lib/query/filters.js';

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

/**
 * The card's device: `sim_cards.device_id`, kept by the database's triggers (the lowest device
 * whose SIM number is the card's ICCID or MSISDN; decision 0019). One primary-key probe per card.
 */
const linkOf = sql`${devices.id} = ${simCards.deviceId}`;
/** The card's linked device, if the scope sees it (a condition on `devices`). */
const linkSeen = (scopePath: string | undefined) => and(linkOf, visibleDevices(scopePath));

/** Cards a caller sees: scoped like devices (owner line, or a project it sees). */
export const visibleCards = (scopePath: string | undefined) => visibleOwned(simCards.ownerPath, simCards.projectId, scopePath);

/** The card's linked device among those the scope sees, as {id, name, sn} json (or null). */
const deviceOf = (scopePath: string | undefined) =>
  sql<{ id: number; name: string; sn: string } | null>`(select json_build_object('id', ${devices.id}, 'name', ${devices.name}, 'sn', ${devices.sn})
    from ${devices} where ${linkSeen(scopePath)})`;

const columns = (scopePath: string | undefined) => ({
  id: simCards.id,
  iccid: simCards.iccid,
  msisdn: simCards.msisdn,
  imsi: simCards.imsi,
  carrier: simCards.carrier,
  plan: simCards.plan,
  status: simCards.status,
  activatedAt: simCards.activatedAt,
  expiresAt: simCards.expiresAt,
  daysLeft: sql<number | null>`(${simCards.expiresAt} - current_date)`,
  dataUsedMb: simCards.dataUsedMb,
  dataAllowanceMb: simCards.dataAllowanceMb,
  voiceUsedMin: simCards.voiceUsedMin,
  voiceAllowanceMin: simCards.voiceAllowanceMin,
  groupId: simCards.groupId,
  projectId: simCards.projectId,
  projectName: projects.name,
  projectOwnerPath: projects.ownerPath,
  ownerPath: simCards.ownerPath,
  device: deviceOf(scopePath),
  remarks: simCards.remarks,
  createdAt: simCards.createdAt,
  updatedAt: simCards.updatedAt,
});
export type CardRow = Awaited<ReturnType<typeof findCards>>[number];

export type CardFilter = Omit<EndpointParsedQuery<typeof cardApi.list>, 'page' | 'limit'> & { scopePath?: string };

/**
 * Cards whose ICCID, MSISDN, IMSI or plan contains the text (`pattern`, a LIKE pattern), or whose
 * linked device (one the caller sees) has it in its name or SN. Each arm is an index condition
 * (the cards' trigram index; `device_id` among the devices the devices' trigram index finds), so
 * PostgreSQL ORs them as bitmaps instead of testing every card.
 */
function cardTextMatch(pattern: string, scopePath: string | undefined): SQL {
  const lower = pattern.toLowerCase();
  const ids = sql`array(select ${devices.id} from ${devices} where ${and(
    deviceTextLike(lower),
    or(ilike(devices.name, pattern), ilike(devices.sn, pattern)),
    sql`${devices.simNumber} <> ''`,
    visibleDevices(scopePath),
  )})`;
  return or(like(simCards.search, lower), sql`${simCards.deviceId} = any(${ids})`)!;
}

/**
 * Linked or not, counting only devices the caller sees (as the card's own `device` does). A
 * caller who sees every device asks the column alone, so PostgreSQL knows from its statistics
 * how many cards are unlinked and walks the sort's index (the anti-join it estimated at one row
 * sorted every card: 3.7 s at 500,000 cards).
 */
function linkedFilter(linked: boolean, scopePath: string | undefined): SQL {
  if (scopePath === undefined) return linked ? isNotNull(simCards.deviceId) : isNull(simCards.deviceId);
  if (linked) return and(isNotNull(simCards.deviceId), sql`exists (select 1 from ${devices} where ${linkSeen(scopePath)})`)!;
  // A scalar subquery: one primary-key probe per linked card the list passes. As `not exists`
  // inside the OR, PostgreSQL hashed every device the caller sees first (246,000 for the largest
  // agent, 0.16 s) for a page that passes a few thousand cards.
  const device = sql`(select ${devices.id} from ${devices} where ${linkSeen(scopePath)})`;
  return or(isNull(simCards.deviceId), sql`${device} is null`)!;
}

function filterOf(f: CardFilter) {
  const q = f.q ? `%${escapeLike(f.q)}%` : undefined;
  return and(
    visibleCards(f.scopePath),
    f.status ? eq(simCards.status, f.status) : undefined,
    f.carrier ? eq(simCards.carrier, f.carrier) : undefined,
    f.projectId ? eq(simCards.projectId, f.projectId) : undefined,
    f.expiringWithin === undefined
      ? undefined
      : and(isNotNull(simCards.expiresAt), lte(simCards.expiresAt, sql`current_date + ${f.expiringWithin}::int`)),
    // Only devices the caller sees count (as in the card's own `device`), so neither filter nor
    // search reveals anything of other lines' devices.
    f.linked === undefined ? undefined : linkedFilter(f.linked, f.scopePath),
    q ? cardTextMatch(q, f.scopePath) : undefined,
  );
}

function orderOf(f: Pick<CardFilter, 'sort' | 'order'>) {
  const dir = f.order === 'asc' ? asc : desc;
  // A card not yet activated or without an expiry date sorts as the latest (PostgreSQL's null
  // order: last ascending, first descending), so one (column, id) index serves both directions.
  return [dir(simCards[f.sort]), dir(simCards.id)];
}

export async function listCards(db: Executor, f: CardFilter & { page: number; limit: number }) {
  const where = filterOf(f);
  const [items, total] = await pageAndTotal(
    db,
    f,
    // The linked device and the project are read for the page's cards only.
    pageByIds(
      db
        .select({ id: simCards.id })
        .from(simCards)
        .where(where)
        .orderBy(...orderOf(f))
        .limit(f.limit)
        .offset((f.page - 1) * f.limit),
      (ids) =>
        db
          .select(columns(f.scopePath))
          .from(simCards)
          .leftJoin(projects, eq(projects.id, simCards.projectId))
          .where(inArray(simCards.id, ids))
          .orderBy(...orderOf(f)),
    ),
    db.select({ one: sql`1` }).from(simCards).where(where),
  );
  return { ...total, items };
}

export async function exportCards(db: Executor, f: CardFilter, max: number) {
  return db
    .select(columns(f.scopePath))
    .from(simCards)
    .leftJoin(projects, eq(projects.id, simCards.projectId))
    .where(filterOf(f))
    .orderBy(...orderOf(f))
    .limit(max);
}

export async function findCards(db: Executor, ids: number[], scopePath: string | undefined) {
  if (ids.length === 0) return [];
  return db
    .select(columns(scopePath))
    .from(simCards)
    .leftJoin(projects, eq(projects.id, simCards.projectId))
    .where(and(inArray(simCards.id, ids), visibleCards(scopePath)));
}

/** The card with this ICCID, whoever owns it (ICCIDs are unique platform-wide). */
export async function iccidTaken(db: Executor, iccid: string, exceptId?: number) {
  const [row] = await db.select({ id: simCards.id }).from(simCards).where(eq(simCards.iccid, iccid));
  return Boolean(row && row.id !== exceptId);
}

/**
 * Which of a card's phone number and IMSI another card already has (both unique platform-wide
 * when not empty): 'msisdn', 'imsi' or undefined.
 */
export async function numberTaken(db: Executor, f: { msisdn?: string; imsi?: string }, exceptId?: number) {
  for (const field of ['msisdn', 'imsi'] as const) {
    const v = f[field];
    if (!v) continue;
    const [row] = await db.select({ id: simCards.id }).from(simCards).where(eq(simCards[field], v));
    if (row && row.id !== exceptId) return field;
  }
  return undefined;
}

/** Of these phone numbers and IMSIs, those some card already has. */
export async function existingNumbers(db: Executor, msisdns: string[], imsis: string[]) {
  const [m, i] = await Promise.all([
    msisdns.length ? db.select({ v: simCards.msisdn }).from(simCards).where(inArray(simCards.msisdn, msisdns)) : [],
    imsis.length ? db.select({ v: simCards.imsi }).from(simCards).where(inArray(simCards.imsi, imsis)) : [],
  ]);
  return { msisdn: new Set(m.map((r) => r.v)), imsi: new Set(i.map((r) => r.v)) };
}

export async function existingIccids(db: Executor, iccids: string[]): Promise<Set<string>> {
  if (iccids.length === 0) return new Set();
  const found = await db.select({ iccid: simCards.iccid }).from(simCards).where(inArray(simCards.iccid, iccids));
  return new Set(found.map((r) => r.iccid));
}

export async function insertCard(db: Executor, values: typeof simCards.$inferInsert) {
  const [row] = await db.insert(simCards).values(values).returning({ id: simCards.id });
  return row!.id;
}

export async function insertCards(db: Executor, values: (typeof simCards.$inferInsert)[]) {
  // Imports are bounded (IMPORT_MAX_ROWS); chunks keep each statement's parameters small.
  for (let i = 0; i < values.length; i += 500) await db.insert(simCards).values(values.slice(i, i + 500));
  return values.length;
}

export async function updateCard(db: Executor, id: number, set: Partial<typeof simCards.$inferInsert>) {
  await db.update(simCards).set({ ...set, updatedAt: new Date() }).where(eq(simCards.id, id));
}

export async function deleteCards(db: Executor, ids: number[]) {
  await db.delete(simCards).where(inArray(simCards.id, ids));
}

/** Moves the expiry of cards on by whole months (from today when already expired or unset). */
/** A paid renewal: expiry moves on by `months` (from today for a lapsed card), the card is on `plan` (when named). */
export async function extendExpiry(db: Executor, ids: number[], months: number, plan = '') {
  if (ids.length === 0 || months <= 0) return [];
  return db
    .update(simCards)
    .set({
      expiresAt: sql`(greatest(coalesce(${simCards.expiresAt}, current_date), current_date) + make_interval(months => ${months}::int))::date`,
      ...(plan ? { plan } : {}),
      // A renewed card may be mailed again when its new date comes near.
      expiryNotifiedFor: null,
      updatedAt: new Date(),
    })
    .where(inArray(simCards.id, ids))
    .returning({ id: simCards.id, expiresAt: simCards.expiresAt });
}

/** A paid top-up adds `mb` to the allowance; a refunded one (negative `mb`) takes it back, down to 0. */
export async function addAllowance(db: Executor, ids: number[], mb: number) {
  if (ids.length === 0 || mb === 0) return;
  await db
    .update(simCards)
    .set({ dataAllowanceMb: sql`greatest(least(${simCards.dataAllowanceMb} + ${mb}::int, 2000000000), 0)`, updatedAt: new Date() })
    .where(inArray(simCards.id, ids));
}

/**
 * Cards expiring within `days` that their owner was not mailed about for this expiry date: the
 * owner is the project's owner, else the user at the end of the card's owner path.
 */
export async function expiringUnnotified(db: Executor, days: number) {
  const res = await db.execute(sql`
    select c.id, c.iccid, c.msisdn, c.expires_at::text as expires_at, (c.expires_at - current_date) as days_left,
      u.id as user_id, u.language, coalesce((select array_agg(e.email order by e.id) from ${userEmails} e where e.user_id = u.id), '{}') as emails
    from ${simCards} c
    left join ${projects} p on p.id = c.project_id
    join ${users} u on u.id = coalesce(p.owner_id, nullif(substring(c.owner_path from '/(\\d+)/$'), '')::int)
    where c.expires_at is not null and c.expires_at <= current_date + ${days}::int and c.status <> 'deactivated'
      and (c.expiry_notified_for is distinct from c.expires_at) and ${userActive('u')}
    order by c.expires_at, c.id
    limit 5000`);
  return rows<{ id: number; iccid: string; msisdn: string; expires_at: string; days_left: number; user_id: number; language: string; emails: string[] }>(res);
}

/**
 * Takes the cards' notice for their current expiry date before the mail goes: of two runs at
 * once (a leadership change), the second finds them taken (the row lock, then the condition
 * checked again) and mails nothing. Returns what it took, with the date noted before.
 */
export async function claimNotice(db: Executor, ids: number[]): Promise<{ id: number; prev: string | null }[]> {
  if (ids.length === 0) return [];
  const res = await db.execute(sql`
    update ${simCards} c set expiry_notified_for = c.expires_at
    from (select id, expiry_notified_for::text as prev from ${simCards} where id in ${sql.raw(`(${ids.map(Number).join(',')})`)} for update) o
    where c.id = o.id and c.expiry_notified_for is distinct from c.expires_at
    returning c.id, o.prev`);
  return rows<{ id: number; prev: string | null }>(res);
}

/** A mail that did not go: its cards are asked about again next time. */
export async function releaseNotice(db: Executor, taken: { id: number; prev: string | null }[]) {
  if (taken.length === 0) return;
  await db.execute(sql`
    update ${simCards} c set expiry_notified_for = x.prev::date
    from json_to_recordset(${JSON.stringify(taken)}::json) as x(id int, prev text)
    where c.id = x.id and c.expiry_notified_for = c.expires_at`);
}

