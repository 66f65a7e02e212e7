import type { FastifyBaseLogger } from 'fastify';
import type { AlarmDto, AlarmNoticeDto, Language } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { SEVERITY_WORDS } from './alarm.mail.js';
import * as repo from './notice.repo.js';
import { alarmsByIds } from './alarm.repo.js';
import { NoticeError, alarmPhones, dialable, maskPhone, type NoticeParams, type NoticeProvider } from './notice.provider.js';

export interface NoticeOptions {
  /** The device's alarm phone is sent alarms due a call-out of this level and above (ALARM_PHONE_MIN_LEVEL). */
  deviceMinLevel: number;
  /** Notices per device, and per number, in `windowSeconds` (ALARM_NOTIFY_PER_DEVICE / _PER_NUMBER / _WINDOW). */
  perDevice: number;
  perNumber: number;
  windowSeconds: number;
  /** Attempts before a notice is given up (ALARM_NOTIFY_ATTEMPTS); the n-th retry waits backoffSeconds · 2^(n-1). */
  attempts: number;
  backoffSeconds: number;
  /** Devices whose SN starts so get nothing (the demo fleet, unless ALARM_NOTIFY_DEMO=on). */
  skipSnPrefix?: string;
  /** How often the job looks for due notices (ms). */
  pollMs: number;
}

const LANGS = ['zh', 'en', 'es', 'ja'] as const;
const langOf = (l: string): Language => ((LANGS as readonly string[]).includes(l) ? (l as Language) : 'zh');
const pick = (lang: Language, zh: string, en: string, es: string, ja: string) =>
  (lang === 'zh' ? zh : lang === 'es' ? es || en : lang === 'ja' ? ja || en : en) || zh || en;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
/** Seconds the sender owns a claimed notice: longer than a provider's timeout. */
const LEASE_SECONDS = 120;

type Text = string | null;
/** What a notice says of its alarm (an alarm row of alarm.repo.ts). */
export interface NoticeAlarm {
  deviceName: string;
  sn: string;
  level: number;
  semaphoreId: string;
  name: Text; nameEn: Text; nameEs: Text; nameJa: Text;
  message: string; messageEn: string; messageEs: string; messageJa: string;
  startedAt: Date | string;
}

/** The template variables of an alarm in a language (time in UTC). */
export function noticeParams(a: NoticeAlarm, language: string): NoticeParams {
  const lang = langOf(language);
  const name = pick(lang, a.name ?? '', a.nameEn ?? '', a.nameEs ?? '', a.nameJa ?? '') || a.semaphoreId;
  const message = pick(lang, a.message, a.messageEn, a.messageEs, a.messageJa);
  return {
    device: a.deviceName,
    sn: a.sn,
    level: `${a.level} ${SEVERITY_WORDS[lang][a.level as 1 | 2 | 3 | 4] ?? ''}`.trim(),
    alarm: message || name,
    time: `${new Date(a.startedAt).toISOString().slice(0, 19).replace('T', ' ')} UTC`,
  };
}

/**
 * Alarm SMS and voice calls (issue #39, decision 0037). `queue` turns a started alarm into rows of
 * `alarm_notices` (rate-limited per device and per number in the database); the job sends the due
 * ones through the provider, retrying failures with back-off. Every row and attempt is the
 * alarm's history (`list`). Safe with several instances: claims use FOR UPDATE SKIP LOCKED.
 */
export class AlarmNotifier {
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<number> = Promise.resolve(0);

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    readonly provider: NoticeProvider,
    private readonly opts: NoticeOptions,
  ) {}

  /** Queues the notices of started alarms and sends them at once. */
  async queue(started: Pick<AlarmDto, 'id' | 'sn'>[]): Promise<void> {
    let queued = 0;
    for (const a of started) {
      if (this.opts.skipSnPrefix && a.sn.startsWith(this.opts.skipSnPrefix)) continue;
      const t = await repo.noticeTargets(this.db, a.id);
      if (!t) continue;
      const notices: repo.NewNotice[] = [];
      const seen = new Set<string>();
      const add = (n: repo.NewNotice) => {
        const key = `${n.channel}:${n.phone}`;
        if (seen.has(key)) return;
        seen.add(key);
        notices.push(n);
      };
      if (t.callout && t.level >= this.opts.deviceMinLevel) {
        for (const phone of alarmPhones(t.alarm_phone)) {
          for (const channel of ['sms', 'call'] as const) add({ channel, phone, recipient: 'device', userId: null, language: t.owner_language });
        }
      }
      for (const u of t.users) {
        const phone = dialable(u.phone);
        if (!phone) continue;
        if (u.sms) add({ channel: 'sms', phone, recipient: 'user', userId: u.userId, language: u.language });
        if (u.call) add({ channel: 'call', phone, recipient: 'user', userId: u.userId, language: u.language });
      }
      if (notices.length === 0) continue;
      const rows = await this.db.transaction((tx) => repo.queueNotices(tx, a.id, t.device_id, notices, this.opts));
      const limited = rows.filter((r) => r.state === 'limited').length;
      if (limited > 0) this.log.warn({ alarm: a.id, limited }, 'alarm notices over the rate limit: not sent');
      queued += rows.length - limited;
    }
    if (queued > 0) void this.runOnce().catch((err) => this.log.error({ err }, 'alarm notice job failed'));
  }

  /**
   * Sends every due notice (in rounds of 20) and answers how many were attempted. Calls in one
   * process run one after another; other instances take other rows.
   */
  runOnce(): Promise<number> {
    this.chain = this.chain.catch(() => 0).then(() => this.round());
    return this.chain;
  }

  private async round(): Promise<number> {
    let done = 0;
    for (;;) {
      const due = await repo.claimDue(this.db, 20, LEASE_SECONDS);
      if (due.length === 0) return done;
      const alarmRows = new Map((await alarmsByIds(this.db, [...new Set(due.map((d) => d.alarmId))])).map((r) => [r.id, r]));
      for (const n of due) {
        done++;
        const a = alarmRows.get(n.alarmId);
        if (!a) continue;
        const message = { phone: n.phone, params: noticeParams(a, n.language), outId: String(n.id) };
        const at = new Date().toISOString();
        try {
          const r = n.channel === 'sms' ? await this.provider.sendSms(message) : await this.provider.call(message);
          await repo.recordTry(this.db, n.id, { at, ok: true, code: 'OK', message: '', provider: this.provider.name, ref: r.ref });
        } catch (err) {
          const code = err instanceof NoticeError ? err.code : 'error';
          // A refusal for good (an invalid number, a rejected template, wrong keys) is not tried again.
          const reason = err instanceof NoticeError ? err.reason : undefined;
          const last = reason !== undefined || n.attempts >= this.opts.attempts;
          const retrySeconds = last ? undefined : Math.min(3600, this.opts.backoffSeconds * 2 ** (n.attempts - 1));
          this.log.warn({ err, notice: n.id, alarm: n.alarmId, attempt: n.attempts, last, reason }, 'alarm notice not sent');
          await repo.recordTry(this.db, n.id, {
            at, ok: false, code, message: (err as Error).message.slice(0, 200), provider: this.provider.name, retrySeconds,
            ...(reason ? { reason } : {}),
          });
        }
      }
    }
  }

  /** One alarm's notices for a caller who may see it (an alarm out of scope has none). */
  async list(alarmId: number, scopePath: string | undefined): Promise<AlarmNoticeDto[]> {
    return (await repo.noticesOf(this.db, alarmId, scopePath)).map((r) => ({
      id: r.id,
      channel: r.channel as AlarmNoticeDto['channel'],
      recipient: r.recipient as AlarmNoticeDto['recipient'],
      username: r.username,
      phone: maskPhone(r.phone),
      state: r.state as AlarmNoticeDto['state'],
      attempts: r.attempts,
      provider: r.provider,
      createdAt: iso(r.createdAt)!,
      sentAt: iso(r.sentAt),
      nextAt: r.state === 'pending' ? iso(r.nextAt) : null,
      tries: r.tries as repo.Try[],
    }));
  }

  start(): void {
    this.timer = setInterval(() => void this.runOnce().catch((err) => this.log.error({ err }, 'alarm notice job failed')), this.opts.pollMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a round under way (the database closes after). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.chain.catch(() => 0);
  }
}
