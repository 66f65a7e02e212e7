import type { AlarmNoticeChannel, AlarmNoticeReason } from '@iot/contract';

/**
 * Where alarm SMS and voice calls go (issue #39, decision 0037): one adapter per provider. The
 * simulated one (ALARM_NOTIFY_PROVIDER=simulated, the default) records what it was asked and
 * sends nothing; notice.aliyun.ts speaks to Alibaba Cloud SMS (SendSms) and voice notification
 * (SingleCallByTts).
 */
export interface NoticeMessage {
  /** Digits, with a leading + for an international number. */
  phone: string;
  /** The template's variables: what the SMS says and the call reads out. */
  params: NoticeParams;
  /** Our id of the notice, handed to the provider as its out id. */
  outId: string;
}

/** Variables of the SMS and voice templates (docs/OPERATIONS.md, "Alarm SMS and calls"). */
export interface NoticeParams {
  device: string;
  sn: string;
  level: string;
  alarm: string;
  time: string;
}

export interface NoticeProvider {
  /** `simulated`, `aliyun`: stored with each notice. */
  readonly name: string;
  /** Sends one SMS; answers the provider's id of it. Throws NoticeError when refused or unreachable. */
  sendSms(m: NoticeMessage): Promise<{ ref: string }>;
  /** Places one voice call that reads the alarm out; answers the provider's call id. */
  call(m: NoticeMessage): Promise<{ ref: string }>;
}

/**
 * The provider refused or could not be reached: its code and message go to the notice's history.
 * With a `reason` the refusal is for good (an invalid number, a template the platform rejects,
 * wrong keys…): the notice fails at once. Without one it is retried with back-off.
 */
export class NoticeError extends Error {
  constructor(
    /** The provider's code (`isv.BUSINESS_LIMIT_CONTROL`…), or `network`, `timeout`, `http<status>`, `badAnswer`. */
    readonly code: string,
    message: string,
    readonly reason?: AlarmNoticeReason,
  ) {
    super(message);
    this.name = 'NoticeError';
  }
}

/**
 * The built-in provider: keeps every request in `sent` (the demo's and the tests' witness) and
 * answers at once. Nothing leaves the machine. Numbers of the unassigned country codes +999 and
 * +990 show its two kinds of failure: +999… is refused as an invalid number (for good, not
 * retried), +990… is never reachable (retried until the attempts are spent).
 */
export class SimulatedNotices implements NoticeProvider {
  readonly name = 'simulated';
  readonly sent: { channel: AlarmNoticeChannel; phone: string; params: NoticeParams; outId: string }[] = [];
  /** Every request, refused ones too. */
  readonly asked: { channel: AlarmNoticeChannel; phone: string }[] = [];
  private n = 0;

  private record(channel: AlarmNoticeChannel, m: NoticeMessage) {
    this.asked.push({ channel, phone: m.phone });
    if (this.asked.length > 1000) this.asked.splice(0, this.asked.length - 1000);
    if (m.phone.startsWith('+999')) throw new NoticeError('sim.NUMBER_ILLEGAL', 'no such number (simulated)', 'number');
    if (m.phone.startsWith('+990')) throw new NoticeError('sim.UNREACHABLE', 'the network did not answer (simulated)');
    this.sent.push({ channel, phone: m.phone, params: m.params, outId: m.outId });
    if (this.sent.length > 1000) this.sent.splice(0, this.sent.length - 1000);
    return { ref: `sim-${++this.n}` };
  }

  async sendSms(m: NoticeMessage) {
    return this.record('sms', m);
  }

  async call(m: NoticeMessage) {
    return this.record('call', m);
  }
}

/**
 * A phone number as providers take it: spaces, dashes, dots and brackets dropped, a leading + or
 * 00 kept as +; undefined unless 5 to 20 digits remain.
 */
export function dialable(raw: string): string | undefined {
  const s = raw.trim().replace(/[\s\-().]/g, '');
  const m = /^(\+|00)?(\d{5,20})$/.exec(s);
  if (!m) return undefined;
  return m[1] ? `+${m[2]}` : m[2];
}

/** Every dialable number of a device's alarm phone field (numbers separated by commas). */
export function alarmPhones(field: string): string[] {
  return [...new Set(field.split(/[,，;]/).flatMap((p) => dialable(p) ?? []))];
}

/** The number with its middle hidden: 138****5678 (a short one keeps its last two digits). */
export function maskPhone(phone: string): string {
  if (phone.length >= 8) return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}`;
  return `${'*'.repeat(Math.max(0, phone.length - 2))}${phone.slice(-2)}`;
}
