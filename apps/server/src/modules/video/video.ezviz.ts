import type { VideoProvider } from './video.provider.js';

export interface EzvizOptions {
  /** The open platform (EZVIZ_BASE_URL, default https://open.ys7.com). */
  baseUrl: string;
  appKey: string;
  appSecret: string;
  /** Seconds a live address is valid (the platform takes 30 s to 720 days). */
  addressTtlSeconds?: number;
  timeoutMs?: number;
  now?: () => number;
}

/** The platform's envelope: `code` "200" is success. */
interface Answer {
  code?: unknown;
  msg?: unknown;
  data?: Record<string, unknown> | null;
}

/** Codes of an unknown or expired access token: fetched again once, then the call repeated. */
const TOKEN_ERROR_CODES = ['10002'];
/** A token is renewed this long before the expiry the platform gave (it lasts 7 days). */
const TOKEN_MARGIN_MS = 3_600_000;

/**
 * The EZVIZ (萤石) open platform: an access token from `/api/lapp/token/get` (app key and secret),
 * cached until an hour before the expiry it comes with and fetched again once when the platform
 * calls it expired; the camera's live address from `/api/lapp/v2/live/address/get` as HLS
 * (protocol 2) valid for `addressTtlSeconds`. The address carries its own signed expiry, never
 * the account's token, so it can go to the browser.
 */
export class EzvizVideo implements VideoProvider {
  readonly name = 'ezviz';
  private token: { value: string; until: number } | undefined;
  private pending: Promise<string> | undefined;
  private readonly now: () => number;

  constructor(private readonly opts: EzvizOptions) {
    this.now = opts.now ?? Date.now;
  }

  async h5Url(device: { sn: string; name: string; cameraSerial: string }) {
    const [serial, channel] = device.cameraSerial.split(':');
    if (!serial) throw new Error('the device has no EZVIZ camera serial (device field "camera serial")');
    const ttl = this.opts.addressTtlSeconds ?? 600;
    const params = { deviceSerial: serial, channelNo: channel || '1', protocol: '2', quality: '1', expireTime: String(ttl) };
    let a = await this.post('/api/lapp/v2/live/address/get', { accessToken: await this.accessToken(), ...params });
    if (TOKEN_ERROR_CODES.includes(String(a.code))) {
      this.token = undefined;
      a = await this.post('/api/lapp/v2/live/address/get', { accessToken: await this.accessToken(), ...params });
    }
    const url = a.data?.url;
    if (String(a.code) !== '200' || typeof url !== 'string') throw new Error(`EZVIZ ${String(a.code)}: ${String(a.msg ?? '')}`);
    return { url, expiresAt: new Date(this.now() + ttl * 1000) };
  }

  /** The cached token, or one fetched now (one request at a time). */
  private accessToken(): Promise<string> {
    if (this.token && this.token.until > this.now()) return Promise.resolve(this.token.value);
    this.pending ??= this.fetchToken().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const a = await this.post('/api/lapp/token/get', { appKey: this.opts.appKey, appSecret: this.opts.appSecret });
    const value = a.data?.accessToken;
    if (String(a.code) !== '200' || typeof value !== 'string') throw new Error(`EZVIZ token ${String(a.code)}: ${String(a.msg ?? '')}`);
    const expiry = Number(a.data?.expireTime);
    const until = (Number.isFinite(expiry) && expiry > 0 ? expiry : this.now() + 7 * 86_400_000) - TOKEN_MARGIN_MS;
    this.token = { value, until };
    return value;
  }

  private async post(path: string, form: Record<string, string>): Promise<Answer> {
    const res = await fetch(`${this.opts.baseUrl.replace(/\/$/, '')}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    try {
      return JSON.parse(text) as Answer;
    } catch {
      throw new Error(`EZVIZ answered HTTP ${res.status}: ${text.slice(0, 120)}`);
    }
  }
}
