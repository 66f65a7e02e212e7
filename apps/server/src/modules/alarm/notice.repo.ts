import crypto from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AlarmNoticeReason } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { alarmNotices, alarms, projectUsers, users } from '../../db/schema/index.js';
import { userActive, visibleOwned } from '../../lib/query/visibility.js';

const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

/**
 * Whom an alarm's phone notices go to: the device's alarm phone field (with the alarm's call-out
 * flag, decision 0024) and the users who would be mailed it (its project's owner and the users
 * the project is shared with) whose SMS or call level it reaches and who have a contact number.
 * `language`: the user's, or for the device phone its project owner's.
 */
export async function noticeTargets(db: Executor, alarmId: number) {
  const res = await db.execute(sql`
    select a.id, a.device_id, a.level, a.callout, d.sn, d.alarm_phone, coalesce(o.language, 'zh') as owner_language,
      coalesce((select json_agg(json_build_object('userId', u.id, 'language', u.language, 'phone', u.contact_number,
          'sms', u.alarm_sms_level <= a.level, 'call', u.alarm_call_level <= a.level) order by u.id)
        from ${users} u
        where (u.id = p.owner_id or exists (select 1 from ${projectUsers} pu where pu.project_id = p.id and pu.user_id = u.id))
          and (u.alarm_sms_level <= a.level or u.alarm_call_level <= a.level)
          and u.contact_number ~ '[0-9]' and ${userActive('u')}), '[]'::json) as users
    from ${alarms} a join devices d on d.id = a.device_id
    left join projects p on p.id = d.project_id
    left join ${users} o on o.id = p.owner_id
    where a.id = ${alarmId}`);
  return rows<{
    id: number;
    device_id: number;
    level: number;
    callout: boolean;
    sn: string;
    alarm_phone: string;
    owner_language: string;
    users: { userId: number; language: string; phone: string; sms: boolean | null; call: boolean | null }[];
  }>(res)[0];
}

/** A number's advisory lock key: the first 32 bits of its SHA-256. */
const phoneLockKey = (phone: string) => crypto.createHash('sha256').update(phone).digest().readInt32BE(0);

export interface NewNotice {
  channel: 'sms' | 'call';
  phone: string;
  recipient: 'device' | 'user';
  userId: number | null;
  language: string;
}

/**
 * Queues an alarm's notices, each `pending` while its device and its number have notices left in
 * the window, else `limited`. The device and then its numbers (in order) are locked for the
 * transaction with advisory locks, so two instances queueing at once count each other's rows and
 * never deadlock; the limits count every notice of the window but the limited ones.
 */
export async function queueNotices(
  db: Executor,
  alarmId: number,
  deviceId: number,
  notices: NewNotice[],
  limits: { perDevice: number; perNumber: number; windowSeconds: number },
) {
  if (notices.length === 0) return [];
  const phones = [...new Set(notices.map((n) => n.phone))];
  // Two lock spaces (1 devices, 2 numbers); numbers by their key's order, so two transactions
  // always take the same locks in the same order.
  const phoneKeys = [...new Set(phones.map(phoneLockKey))].sort((a, b) => a - b);
  await db.execute(sql`select pg_advisory_xact_lock(1, ${deviceId}::int)`);
  for (const k of phoneKeys) await db.execute(sql`select pg_advisory_xact_lock(2, ${k}::int)`);
  const since = sql`now() - make_interval(secs => ${limits.windowSeconds})`;
  const counted = sql`${alarmNotices.state} <> 'limited' and ${alarmNotices.createdAt} > ${since}`;
  const [dev] = rows<{ n: number }>(await db.execute(sql`
    select count(*)::int as n from ${alarmNotices} where ${alarmNotices.deviceId} = ${deviceId} and ${counted}`));
  const perPhone = new Map(
    rows<{ phone: string; n: number }>(await db.execute(sql`
      select ${alarmNotices.phone} as phone, count(*)::int as n from ${alarmNotices}
      where ${inArray(alarmNotices.phone, phones)} and ${counted} group by ${alarmNotices.phone}`)).map((r) => [r.phone, r.n]),
  );
  let deviceCount = dev?.n ?? 0;
  const values = notices.map((n) => {
    const phoneCount = perPhone.get(n.phone) ?? 0;
    const allowed = deviceCount < limits.perDevice && phoneCount < limits.perNumber;
    if (allowed) {
      deviceCount++;
      perPhone.set(n.phone, phoneCount + 1);
    }
    return { alarmId, deviceId, ...n, state: allowed ? 'pending' : 'limited' };
  });
  return db.insert(alarmNotices).values(values).returning({ id: alarmNotices.id, state: alarmNotices.state });
}

/**
 * Claims up to `limit` due notices for sending: FOR UPDATE SKIP LOCKED (another instance takes
 * other rows), the attempt counted and `next_at` moved on by `leaseSeconds`, so a notice whose
 * sender died is taken again after the lease and never by two senders at once.
 */
export async function claimDue(db: Executor, limit: number, leaseSeconds: number) {
  const res = await db.execute(sql`
    update ${alarmNotices} n set next_at = now() + make_interval(secs => ${leaseSeconds}), attempts = n.attempts + 1
    where n.id in (select id from ${alarmNotices} where state = 'pending' and next_at <= now()
      order by next_at limit ${limit} for update skip locked)
    returning n.id::int as id, n.alarm_id::int as "alarmId", n.channel, n.phone, n.language, n.attempts`);
  return rows<{ id: number; alarmId: number; channel: 'sms' | 'call'; phone: string; language: string; attempts: number }>(res);
}

export interface Try {
  at: string;
  ok: boolean;
  code: string;
  message: string;
  /** Refused for good (contract ALARM_NOTICE_REASONS): the notice failed without further tries. */
  reason?: AlarmNoticeReason;
}

/** A notice's attempt and its outcome: sent, retried after `retrySeconds`, or failed for good. */
export async function recordTry(
  db: Executor,
  id: number,
  t: Try & { provider: string; ref?: string; retrySeconds?: number },
) {
  const state = t.ok ? 'sent' : t.retrySeconds === undefined ? 'failed' : 'pending';
  const entry = { at: t.at, ok: t.ok, code: t.code, message: t.message, ...(t.reason ? { reason: t.reason } : {}) };
  await db
    .update(alarmNotices)
    .set({
      state,
      provider: t.provider,
      ...(t.ref ? { providerRef: t.ref.slice(0, 128) } : {}),
      tries: sql`${alarmNotices.tries} || ${JSON.stringify([entry])}::jsonb`,
      ...(t.ok ? { sentAt: sql`now()` } : {}),
      ...(t.retrySeconds !== undefined ? { nextAt: sql`now() + make_interval(secs => ${t.retrySeconds})` } : {}),
    })
    .where(eq(alarmNotices.id, id));
}

/** The notices of one alarm the scope sees (none when it does not see the alarm), oldest first. */
export async function noticesOf(db: Executor, alarmId: number, scopePath: string | undefined) {
  return db
    .select({
      id: alarmNotices.id,
      channel: alarmNotices.channel,
      recipient: alarmNotices.recipient,
      username: users.username,
      phone: alarmNotices.phone,
      state: alarmNotices.state,
      attempts: alarmNotices.attempts,
      provider: alarmNotices.provider,
      createdAt: alarmNotices.createdAt,
      sentAt: alarmNotices.sentAt,
      nextAt: alarmNotices.nextAt,
      tries: alarmNotices.tries,
    })
    .from(alarmNotices)
    .innerJoin(alarms, eq(alarms.id, alarmNotices.alarmId))
    .leftJoin(users, eq(users.id, alarmNotices.userId))
    .where(and(eq(alarmNotices.alarmId, alarmId), visibleOwned(alarms.ownerPath, alarms.projectId, scopePath)))
    .orderBy(asc(alarmNotices.id));
}

/**
 * Deletes up to `limit` settled notices (sent, failed, limited) created before `before`, oldest
 * first from `alarm_notices_settled_idx`; a queued or sending one (`pending`) is never touched.
 * Answers how many went (ALARM_NOTICE_RETENTION_DAYS).
 */
export async function pruneNotices(db: Executor, before: Date, limit: number): Promise<number> {
  const res = await db.execute(sql`
    delete from ${alarmNotices} where id in (
      select id from ${alarmNotices} where state <> 'pending' and created_at < ${before.toISOString()}::timestamptz
      order by created_at, id limit ${limit}) returning id`);
  return rows<{ id: number }>(res).length;
}
