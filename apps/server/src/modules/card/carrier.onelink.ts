import type { SimBasicInfo, VoiceOffering, WhitelistEntry } from '@iot/contract';
import { CarrierError, cardKey, type CardRef, type CarrierAdapter } from './carrier.js';

export interface OneLinkOptions {
  /** The API's base, e.g. https://api.iot.10086.cn/v5 (ONELINK_BASE_URL). */
  baseUrl: string;
  appId: string;
  password: string;
  /** Requests a second to the platform, all operations together (ONELINK_RATE_LIMIT). */
  ratePerSecond: number;
  /** Whitelist numbers a member card may hold. */
  whitelistMax: number;
  timeoutMs?: number;
  /** Clock, for tests of the token's lifetime. */
  now?: () => number;
}

/** OneLink's answer: status "0" is success, `result` the list of answers. */
interface Answer {
  status?: unknown;
  message?: unknown;
  result?: unknown;
}

/**
 * Status codes OneLink answers when the token is unknown or expired ("token不存在或已过期"):
 * the adapter then fetches a new token once and repeats the call.
 */
export const TOKEN_ERROR_CODES: readonly string[] = ['12021', '12022'];
/** A token is valid for one hour; it is renewed a minute early. */
const TOKEN_LIFETIME_MS = 3_600_000;
const TOKEN_MARGIN_MS = 60_000;

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
const num = (v: unknown) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * China Mobile OneLink IoT card platform over HTTP (API v5, `GET {base}/ec/...`). Every request
 * carries a transaction id (app id + local time YYYYMMDDhhmmss + an 8-digit sequence) and the
 * token of `get-token`, cached for its hour and renewed once when the platform calls it invalid
 * or expired. Requests are spaced to `ratePerSecond` (the platform limits calls per app id).
 */
export class OneLinkCarrier implements CarrierAdapter {
  readonly name = 'onelink';
  readonly whitelistMax: number;
  private token: { value: string; until: number } | undefined;
  private tokenPending: Promise<string> | undefined;
  private seq = 0;
  private nextSlot = 0;
  private readonly now: () => number;

  constructor(private readonly opts: OneLinkOptions) {
    this.whitelistMax = opts.whitelistMax;
    this.now = opts.now ?? Date.now;
  }

  /** appid + YYYYMMDDhhmmss + 8-digit sequence (wraps at 10^8). */
  transactionId(at = new Date(this.now())): string {
    this.seq = (this.seq + 1) % 100_000_000;
    const time =
      `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}` +
      `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
    return `${this.opts.appId}${time}${pad(this.seq, 8)}`;
  }

  /** Waits for the next free request slot of the rate limit. */
  private async slot(): Promise<void> {
    const gap = 1000 / this.opts.ratePerSecond;
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + gap;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
  }

  private async get(path: string, params: Record<string, string>): Promise<Answer> {
    await this.slot();
    const url = new URL(`${this.opts.baseUrl.replace(/\/$/, '')}${path}`);
    for (const [k, v] of Object.entries({ transid: this.transactionId(), ...params })) url.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000) });
    } catch (err) {
      const timeout = (err as Error).name === 'TimeoutError';
      throw new CarrierError(timeout ? 'timeout' : 'network', timeout ? 'The carrier did not answer in time' : `The carrier cannot be reached: ${(err as Error).message}`);
    }
    const text = await res.text();
    try {
      const body = JSON.parse(text) as Answer;
      if (body && typeof body === 'object') return body;
    } catch {
      // fall through
    }
    throw new CarrierError('badAnswer', `The carrier answered HTTP ${res.status} without a readable body`);
  }

  private async fetchToken(): Promise<string> {
    const body = await this.get('/ec/get/token', { appid: this.opts.appId, password: this.opts.password });
    const first = (Array.isArray(body.result) ? body.result[0] : undefined) as { token?: unknown; ttl?: unknown } | undefined;
    if (str(body.status) !== '0' || !first?.token) {
      throw new CarrierError(str(body.status) || 'badAnswer', str(body.message) || 'The carrier refused the token request');
    }
    // The platform states a token's lifetime in seconds when it gives one; an hour otherwise.
    const ttl = Number(first.ttl) > 0 ? Math.min(Number(first.ttl) * 1000, TOKEN_LIFETIME_MS) : TOKEN_LIFETIME_MS;
    this.token = { value: str(first.token), until: this.now() + ttl - TOKEN_MARGIN_MS };
    return this.token.value;
  }

  /** The cached token, or a new one (concurrent callers share one token request). */
  private async currentToken(): Promise<string> {
    if (this.token && this.token.until > this.now()) return this.token.value;
    this.tokenPending ??= this.fetchToken().finally(() => {
      this.tokenPending = undefined;
    });
    return this.tokenPending;
  }

  /** One operation with the token; a token error renews it and repeats the call once. */
  private async call(path: string, params: Record<string, string>): Promise<unknown[]> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.currentToken();
      const body = await this.get(path, { ...params, token });
      const status = str(body.status);
      if (status === '0') return Array.isArray(body.result) ? body.result : [];
      if (TOKEN_ERROR_CODES.includes(status) && attempt === 0) {
        if (this.token?.value === token) this.token = undefined;
        continue;
      }
      throw new CarrierError(status || 'badAnswer', str(body.message) || 'The carrier refused the request');
    }
  }

  private async groupOf(card: CardRef): Promise<string> {
    if (card.groupId) return card.groupId;
    const [first] = (await this.call('/ec/query/group-by-member', cardKey(card))) as { groupId?: unknown; groupList?: { groupId?: unknown }[] }[];
    const groupId = str(first?.groupId ?? first?.groupList?.[0]?.groupId);
    if (!groupId) throw new CarrierError('noGroup', 'The card belongs to no group: the member voice whitelist needs one');
    return groupId;
  }

  async basicInfo(card: CardRef): Promise<SimBasicInfo> {
    const [first] = (await this.call('/ec/query/sim-basic-info', cardKey(card))) as Record<string, unknown>[];
    if (!first) throw new CarrierError('noData', 'The carrier has no data for this card');
    return {
      msisdn: str(first.msisdn),
      imsi: str(first.imsi),
      iccid: str(first.iccid),
      activeDate: str(first.activeDate),
      openDate: str(first.openDate),
    };
  }

  async voiceMargin(card: CardRef): Promise<VoiceOffering[]> {
    const result = (await this.call('/ec/query/sim-voice-margin', cardKey(card))) as Record<string, unknown>[];
    // The offerings come as the result's items, or in the first item's accmMarginList.
    const list = (Array.isArray(result[0]?.accmMarginList) ? result[0]!.accmMarginList : result) as Record<string, unknown>[];
    return list.map((o) => ({
      offeringId: str(o.offeringId),
      offeringName: str(o.offeringName),
      totalAmount: num(o.totalAmount),
      useAmount: num(o.useAmount),
      remainAmount: num(o.remainAmount),
    }));
  }

  async voiceWhitelist(card: CardRef): Promise<{ totalCount: number; numbers: WhitelistEntry[] }> {
    const groupId = await this.groupOf(card);
    const [first] = (await this.call('/ec/query/member-voice-whitelist', { groupId, ...cardKey(card) })) as Record<string, unknown>[];
    const list = (Array.isArray(first?.memVoiceWhiteList) ? first.memVoiceWhiteList : []) as Record<string, unknown>[];
    const numbers = list.map((w) => ({ whiteNumber: str(w.whiteNumber), status: str(w.status) }));
    return { totalCount: first?.totalCount === undefined ? numbers.length : num(first.totalCount), numbers };
  }

  async configVoiceWhitelist(card: CardRef, operation: 'add' | 'delete', whiteNumber: string): Promise<void> {
    const groupId = await this.groupOf(card);
    await this.call('/ec/config/member-voice-whitelist', {
      groupId,
      operType: operation === 'add' ? '1' : '4',
      whiteNumber,
      ...cardKey(card),
    });
  }
}
