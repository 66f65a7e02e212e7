import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '@iot/contract';
import type { Db } from '../../db/client.js';
import * as repo from './card.repo.js';

/** How the expiry check sends its mail: the alarm module's mailer (AlarmMailer.sendText). */
export interface MailSender {
  sendText(to: string[], subject: string, text: string): Promise<boolean>;
}

const TEXTS: Record<Language, { subject: string; intro: string; line: string; expired: string; link: string }> = {
  zh: { subject: '{{count}} 张物联网卡即将到期', intro: '以下物联网卡将在 {{days}} 天内到期，请及时续费：', line: '{{iccid}}（{{msisdn}}）到期日 {{date}}，剩余 {{left}} 天', expired: '{{iccid}}（{{msisdn}}）已于 {{date}} 到期', link: '在控制台续费' },
  en: { subject: '{{count}} SIM card(s) expiring soon', intro: 'These SIM cards expire within {{days}} days; please renew them:', line: '{{iccid}} ({{msisdn}}) expires on {{date}}, {{left}} day(s) left', expired: '{{iccid}} ({{msisdn}}) expired on {{date}}', link: 'Renew in the console' },
  es: { subject: '{{count}} tarjeta(s) SIM vencen pronto', intro: 'Estas tarjetas SIM vencen en {{days}} días; renuévelas:', line: '{{iccid}} ({{msisdn}}) vence el {{date}}, quedan {{left}} día(s)', expired: '{{iccid}} ({{msisdn}}) venció el {{date}}', link: 'Renovar en la consola' },
  ja: { subject: '{{count}} 枚のSIMカードがまもなく期限切れ', intro: '次のSIMカードは {{days}} 日以内に期限切れになります。更新してください：', line: '{{iccid}}（{{msisdn}}）有効期限 {{date}}、残り {{left}} 日', expired: '{{iccid}}（{{msisdn}}）は {{date}} に期限切れ', link: 'コンソールで更新' },
};
const fill = (t: string, p: Record<string, string | number>) => t.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(p[k] ?? ''));
const langOf = (l: string): Language => ((['zh', 'en', 'es', 'ja'] as const).includes(l as Language) ? (l as Language) : 'en');

/** One owner's mail about its expiring cards, in its language. */
export function composeExpiryMail(cards: { iccid: string; msisdn: string; expires_at: string; days_left: number }[], language: string, days: number, consoleUrl?: string) {
  const t = TEXTS[langOf(language)];
  const lines = cards.map((c) => fill(c.days_left < 0 ? t.expired : t.line, { iccid: c.iccid, msisdn: c.msisdn || '-', date: c.expires_at, left: c.days_left }));
  const link = consoleUrl ? `\n\n${t.link}: ${consoleUrl.replace(/\/$/, '')}/card/index?expiring=${days}` : '';
  return { subject: fill(t.subject, { count: cards.length }), text: `${fill(t.intro, { days })}\n\n${lines.join('\n')}${link}` };
}

/**
 * The card module's timers: unpaid orders expire (every minute), and once a day the owners of
 * cards expiring within CARD_EXPIRY_NOTICE_DAYS get one e-mail per expiry date of each card
 * (`sim_cards.expiry_notified_for`; a renewal clears it). Like the alarm mails, an owner is the
 * card's project owner, else the user whose line the card was created in, at its linked emails.
 * The timers run on the leading instance (decision 0038); a mail's cards are taken before it goes.
 */
export class CardJobs {
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly orders: { expireDue(): Promise<number> },
    private readonly mail: MailSender,
    private readonly opts: { noticeDays: number; consoleUrl?: string },
  ) {}

  /** Mails the owners of cards coming up for expiry; answers how many mails went out. */
  async checkExpiry(): Promise<number> {
    const due = await repo.expiringUnnotified(this.db, this.opts.noticeDays);
    const byOwner = new Map<number, typeof due>();
    for (const c of due) byOwner.set(c.user_id, [...(byOwner.get(c.user_id) ?? []), c]);
    let sent = 0;
    for (const found of byOwner.values()) {
      // Taken first (owners without an e-mail are not asked again for the same date either):
      // a card is never in two mails, even from two instances at once.
      const taken = await repo.claimNotice(this.db, found.map((c) => c.id));
      const mine = new Set(taken.map((t) => t.id));
      const cards = found.filter((c) => mine.has(c.id));
      const owner = cards[0];
      const to = [...new Set(owner?.emails ?? [])];
      if (!owner || to.length === 0) continue;
      const mail = composeExpiryMail(cards, owner.language, this.opts.noticeDays, this.opts.consoleUrl);
      if (await this.mail.sendText(to, mail.subject, mail.text)) sent++;
      else await repo.releaseNotice(this.db, taken);
    }
    return sent;
  }

  start(): void {
    const run = (what: string, fn: () => Promise<unknown>) => () => void fn().catch((err) => this.log.error({ err }, what));
    const expire = run('card order expiry failed', () => this.orders.expireDue());
    const check = run('SIM card expiry check failed', () => this.checkExpiry());
    const first = setTimeout(check, 30_000);
    this.timers = [first, setInterval(expire, 60_000), setInterval(check, 86_400_000)];
    for (const t of this.timers) t.unref();
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}
