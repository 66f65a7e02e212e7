import { createRequire } from 'node:module';
import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { AlarmDto, Language } from '@iot/contract';

export interface MailOptions {
  /** smtp://user:pass@host:port or smtps://…; unset: mails are written to the log instead. */
  smtpUrl?: string;
  from: string;
  /** Alarms of this level and above are mailed to users who never chose their own mail level. */
  minLevel: number;
  /** At most one mail per device and rule in this period (a flapping device does not flood inboxes). */
  intervalMs: number;
  /** The console's address for links in the mails (optional). */
  consoleUrl?: string;
}

export interface Recipient {
  language: string;
  emails: string[];
}

const TEXTS: Record<Language, { subject: string; level: string; device: string; param: string; value: string; at: string; link: string }> = {
  zh: { subject: '[{{severity}}·{{level}}级告警] {{device}}：{{what}}', level: '告警级别', device: '设备', param: '参数', value: '数值', at: '告警时间', link: '在控制台查看' },
  en: { subject: '[{{severity}} alarm, level {{level}}] {{device}}: {{what}}', level: 'Level', device: 'Device', param: 'Parameter', value: 'Value', at: 'Started at', link: 'Open in the console' },
  es: { subject: '[Alarma {{severity}}, nivel {{level}}] {{device}}: {{what}}', level: 'Nivel', device: 'Dispositivo', param: 'Parámetro', value: 'Valor', at: 'Inicio', link: 'Abrir en la consola' },
  ja: { subject: '[{{severity}}・レベル{{level}}アラーム] {{device}}：{{what}}', level: 'レベル', device: 'デバイス', param: 'パラメータ', value: '値', at: '発生時刻', link: 'コンソールで開く' },
};

/**
 * The words of the levels (4 the most severe, decision 0023): the console's `common:severity`
 * texts, which alarm.mail.test.ts keeps equal to these.
 */
export const SEVERITY_WORDS: Record<Language, Record<1 | 2 | 3 | 4, string>> = {
  zh: { 1: '警告', 2: '次要', 3: '重要', 4: '严重' },
  en: { 1: 'Warning', 2: 'Minor', 3: 'Major', 4: 'Critical' },
  es: { 1: 'Aviso', 2: 'Menor', 3: 'Mayor', 4: 'Crítica' },
  ja: { 1: '警告', 2: '軽度', 3: '重大', 4: '緊急' },
};

const fill = (t: string, p: Record<string, string>) => t.replace(/\{\{(\w+)\}\}/g, (_, k: string) => p[k] ?? '');

function langOf(l: string): Language {
  return (['zh', 'en', 'es', 'ja'] as const).includes(l as Language) ? (l as Language) : 'en';
}

/** The alarm's words in a language (its rule's message, else the parameter's name). */
function wordsOf(a: AlarmDto, lang: Language) {
  const pick = (zh: string, en: string, es: string, ja: string) =>
    (lang === 'zh' ? zh : lang === 'es' ? es || en : lang === 'ja' ? ja || en : en) || zh || en;
  const name = pick(a.name, a.nameEn, a.nameEs, a.nameJa) || a.semaphoreId;
  const message = pick(a.message, a.messageEn, a.messageEs, a.messageJa);
  return { name, what: message || name };
}

/** One mail in one language. */
export function composeMail(a: AlarmDto, language: string, consoleUrl?: string) {
  const lang = langOf(language);
  const t = TEXTS[lang];
  const { name, what } = wordsOf(a, lang);
  const device = `${a.deviceName} (${a.sn})`;
  const link = consoleUrl ? `${consoleUrl.replace(/\/$/, '')}/project/alarminfo?alarmId=${a.id}` : '';
  const severity = SEVERITY_WORDS[lang][a.level as 1 | 2 | 3 | 4] ?? '';
  const lines = [
    `${t.level}: ${a.level} (${severity})`,
    `${t.device}: ${device}`,
    `${t.param}: ${name} (${a.semaphoreId})`,
    `${t.value}: ${a.value}`,
    `${t.at}: ${a.startedAt}`,
    ...(link ? ['', `${t.link}: ${link}`] : []),
  ];
  return { subject: fill(t.subject, { severity, level: String(a.level), device, what }), text: lines.join('\n') };
}

/**
 * Alarm e-mails (nodemailer over SMTP_URL). Each started alarm is mailed to the recipients whose
 * mail level it reaches, in their language, at most once per device and rule per interval.
 * Without SMTP_URL the mail is logged (never silently dropped).
 */
export class AlarmMailer {
  private readonly transport: Transporter | undefined;
  private readonly lastSent = new Map<string, number>();

  constructor(
    readonly opts: MailOptions,
    private readonly log: FastifyBaseLogger,
    /**
     * Several instances (decision 0038): takes the key for `ms` for all of them (Redis SET NX PX);
     * false when another instance mailed it within the interval. Unreachable: this process decides.
     */
    private readonly shared?: (key: string, ms: number) => Promise<boolean>,
  ) {
    // nodemailer is loaded only when mail is configured (0.2 s of an embedded start without it).
    this.transport = opts.smtpUrl ? (createRequire(import.meta.url)('nodemailer') as typeof Nodemailer).createTransport(opts.smtpUrl) : undefined;
  }

  /**
   * Whether this alarm is mailed now (the rate limit); records the sending. Which users a level
   * reaches is each user's choice (`mailRecipients`).
   */
  async take(a: Pick<AlarmDto, 'deviceId' | 'semaphoreId' | 'level' | 'source'> & { ruleKey?: string }, now = Date.now()): Promise<boolean> {
    const key = `${a.deviceId}:${a.source}:${a.ruleKey ?? a.semaphoreId}:${a.level}`;
    const last = this.lastSent.get(key);
    if (last !== undefined && now - last < this.opts.intervalMs) return false;
    if (this.shared && !(await this.shared(key, this.opts.intervalMs).catch(() => true))) return false;
    this.lastSent.set(key, now);
    if (this.lastSent.size > 50_000) {
      for (const [k, at] of this.lastSent) if (now - at >= this.opts.intervalMs) this.lastSent.delete(k);
    }
    return true;
  }

  async send(a: AlarmDto, recipients: Recipient[]): Promise<number> {
    let sent = 0;
    for (const r of recipients) {
      const to = [...new Set(r.emails)];
      if (to.length === 0) continue;
      const mail = composeMail(a, r.language, this.opts.consoleUrl);
      if (!this.transport) {
        this.log.info({ to, subject: mail.subject, text: mail.text }, 'alarm e-mail (SMTP_URL not set: logged, not sent)');
        sent++;
        continue;
      }
      try {
        await this.transport.sendMail({ from: this.opts.from, to, subject: mail.subject, text: mail.text });
        sent++;
      } catch (err) {
        this.log.error({ err, to, alarm: a.id }, 'alarm e-mail failed');
      }
    }
    return sent;
  }

  /**
   * Any other notice by the same transport (the SIM card expiry check): one plain-text mail,
   * logged instead when SMTP_URL is unset. False when sending failed (logged).
   */
  async sendText(to: string[], subject: string, text: string): Promise<boolean> {
    if (!this.transport) {
      this.log.info({ to, subject, text }, 'e-mail (SMTP_URL not set: logged, not sent)');
      return true;
    }
    try {
      await this.transport.sendMail({ from: this.opts.from, to, subject, text });
      return true;
    } catch (err) {
      this.log.error({ err, to, subject }, 'e-mail failed');
      return false;
    }
  }

  close(): void {
    this.transport?.close();
  }
}
