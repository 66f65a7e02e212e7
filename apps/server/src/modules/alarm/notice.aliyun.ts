import crypto from 'node:crypto';
import type { AlarmNoticeReason } from '@iot/contract';
import { NoticeError, type NoticeMessage, type NoticeParams, type NoticeProvider } from './notice.provider.js';

export interface AliyunOptions {
  accessKeyId: string;
  accessKeySecret: string;
  /** SMS API endpoint (ALIYUN_SMS_URL, default https://dysmsapi.aliyuncs.com). */
  smsUrl: string;
  /** Voice API endpoint (ALIYUN_VOICE_URL, default https://dyvmsapi.aliyuncs.com). */
  voiceUrl: string;
  /** The approved SMS signature (ALIYUN_SMS_SIGN_NAME) and template code (ALIYUN_SMS_TEMPLATE). */
  signName: string;
  smsTemplate: string;
  /** The approved text-to-speech template code (ALIYUN_TTS_TEMPLATE). */
  ttsTemplate: string;
  /** The calling number shown (ALIYUN_TTS_SHOW_NUMBER); unset: the platform's public number. */
  showNumber?: string;
  regionId?: string;
  timeoutMs?: number;
  /** Clock and nonce, for tests. */
  now?: () => Date;
  nonce?: () => string;
}

/**
 * Percent-encoding of the RPC signature (Alibaba Cloud "signature method V2 for RPC APIs"):
 * UTF-8, everything but A-Z a-z 0-9 - _ . ~ as %XY in upper case (a space is %20, never +).
 */
export function percentEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The string to sign: METHOD&%2F&percentEncode(sorted, encoded key=value pairs joined by &). */
export function stringToSign(method: string, params: Record<string, string>): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`)
    .join('&');
  return `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
}

/** Base64(HMAC-SHA1(secret + "&", string to sign)). */
export function rpcSignature(secret: string, method: string, params: Record<string, string>): string {
  return crypto.createHmac('sha1', `${secret}&`).update(stringToSign(method, params)).digest('base64');
}

/** A template variable: Alibaba Cloud takes at most 35 characters for a notification's variable. */
const cut = (v: string) => (v.length > 35 ? `${v.slice(0, 34)}…` : v);
const templateParam = (p: NoticeParams) =>
  JSON.stringify(Object.fromEntries(Object.entries(p).map(([k, v]) => [k, cut(v)])));
/** Mainland numbers as they are, others with their country code and no +. */
const providerNumber = (phone: string) => phone.replace(/^\+/, '');

/**
 * Alibaba Cloud's codes (SMS and voice API error code lists) of a refusal that trying again cannot
 * change, by reason. Other codes are retried: `isv.BUSINESS_LIMIT_CONTROL` (the number's
 * frequency control), `Throttling*`, `isp.SYSTEM_ERROR`, `ServiceUnavailable`, `InternalError`,
 * HTTP errors, time-outs and network failures.
 */
const PERMANENT: Record<AlarmNoticeReason, readonly string[]> = {
  number: ['isv.MOBILE_NUMBER_ILLEGAL', 'isv.MOBILE_COUNT_OVER_LIMIT', 'isv.DOMESTIC_NUMBER_NOT_SUPPORTED', 'isv.BLACK_KEY_CONTROL_LIMIT'],
  content: [
    'isv.TEMPLATE_MISSING_PARAMETERS', 'isv.SMS_TEMPLATE_ILLEGAL', 'isv.SMS_SIGNATURE_ILLEGAL', 'isv.SMS_SIGN_ILLEGAL',
    'isv.SMS_SIGNATURE_SCENE_ILLEGAL', 'isv.SIGN_STATE_ILLEGAL', 'isv.SMS_CONTENT_ILLEGAL', 'isv.INVALID_PARAMETERS',
    'isv.INVALID_JSON_PARAM', 'isv.PARAM_LENGTH_LIMIT', 'isv.PARAM_NOT_SUPPORT_URL', 'isv.EXTEND_CODE_ERROR',
    'isv.TTS_TEMPLATE_ILLEGAL', 'isv.DISPLAY_NUMBER_ILLEGAL', 'MissingParameter', 'InvalidParameter',
  ],
  account: [
    'InvalidAccessKeyId.NotFound', 'InvalidAccessKeyId.Inactive', 'SignatureDoesNotMatch', 'IncompleteSignature',
    'isp.RAM_PERMISSION_DENY', 'isv.ACCOUNT_NOT_EXISTS', 'isv.ACCOUNT_ABNORMAL', 'Account.Abnormal', 'isv.PRODUCT_UN_SUBSCRIPT',
    'isv.PRODUCT_UNSUBSCRIBE', 'isv.OUT_OF_SERVICE', 'isv.AMOUNT_NOT_ENOUGH', 'isv.DENY_IP_RANGE', 'Forbidden.RAM',
  ],
  // The account's own limits of the day or month: retries minutes apart cannot pass them.
  quota: ['isv.DAY_LIMIT_CONTROL', 'isv.MONTH_LIMIT_CONTROL'],
  refused: [],
};
const PERMANENT_BY_CODE = new Map(Object.entries(PERMANENT).flatMap(([reason, codes]) => codes.map((c) => [c, reason as AlarmNoticeReason])));
/** `isv.` codes are the caller's mistakes: an unknown one is refused for good, but the number's frequency control. */
const RETRIED_ISV = ['isv.BUSINESS_LIMIT_CONTROL'];

/** Why Alibaba Cloud refused for good, or undefined when trying again may succeed. */
export function aliyunPermanent(code: string): AlarmNoticeReason | undefined {
  const known = PERMANENT_BY_CODE.get(code);
  if (known) return known;
  if (code.startsWith('InvalidAccessKeyId.') || code.startsWith('Forbidden')) return 'account';
  if (code.startsWith('isv.') && !RETRIED_ISV.includes(code)) return 'refused';
  return undefined;
}

/**
 * Alibaba Cloud SMS (`SendSms`, API 2017-05-25) and voice notification (`SingleCallByTts`, API
 * 2017-05-25) as RPC calls: the parameters in a form-encoded POST body, signed with HMAC-SHA1
 * (`rpcSignature`). `Code: "OK"` is success; any other code, an HTTP error or no answer within
 * the timeout is a NoticeError, which the notice job retries with back-off unless the code
 * says trying again cannot help (`aliyunPermanent`).
 */
export class AliyunNotices implements NoticeProvider {
  readonly name = 'aliyun';

  constructor(private readonly opts: AliyunOptions) {}

  async sendSms(m: NoticeMessage) {
    const a = await this.rpc(this.opts.smsUrl, 'SendSms', {
      PhoneNumbers: providerNumber(m.phone),
      SignName: this.opts.signName,
      TemplateCode: this.opts.smsTemplate,
      TemplateParam: templateParam(m.params),
      OutId: m.outId,
    });
    return { ref: String(a.BizId ?? a.RequestId ?? '') };
  }

  async call(m: NoticeMessage) {
    const a = await this.rpc(this.opts.voiceUrl, 'SingleCallByTts', {
      CalledNumber: providerNumber(m.phone),
      TtsCode: this.opts.ttsTemplate,
      TtsParam: templateParam(m.params),
      PlayTimes: '2',
      OutId: m.outId,
      ...(this.opts.showNumber ? { CalledShowNumber: this.opts.showNumber } : {}),
    });
    return { ref: String(a.CallId ?? a.RequestId ?? '') };
  }

  /** The common parameters of a request at `at` (the signature itself is added by `rpc`). */
  commonParams(action: string, at: Date, nonce: string): Record<string, string> {
    return {
      AccessKeyId: this.opts.accessKeyId,
      Action: action,
      Format: 'JSON',
      RegionId: this.opts.regionId ?? 'cn-hangzhou',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: nonce,
      SignatureVersion: '1.0',
      Timestamp: at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
  }

  private async rpc(endpoint: string, action: string, own: Record<string, string>): Promise<Record<string, unknown>> {
    const params = { ...this.commonParams(action, this.opts.now?.() ?? new Date(), this.opts.nonce?.() ?? crypto.randomUUID()), ...own };
    const signature = rpcSignature(this.opts.accessKeySecret, 'POST', params);
    const body = Object.entries({ ...params, Signature: signature })
      .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
      .join('&');
    let res: Response;
    try {
      res = await fetch(endpoint.replace(/\/?$/, '/'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      const timeout = (err as Error).name === 'TimeoutError';
      throw new NoticeError(timeout ? 'timeout' : 'network', timeout ? `${action}: no answer in time` : `${action}: ${(err as Error).message}`);
    }
    const text = await res.text();
    let answer: Record<string, unknown> | undefined;
    try {
      answer = JSON.parse(text) as Record<string, unknown>;
    } catch {
      answer = undefined;
    }
    if (answer && typeof answer.Code === 'string') {
      if (answer.Code === 'OK') return answer;
      throw new NoticeError(answer.Code, String(answer.Message ?? '').slice(0, 200), aliyunPermanent(answer.Code));
    }
    throw new NoticeError(res.ok ? 'badAnswer' : `http${res.status}`, `${action}: ${text.slice(0, 200)}`);
  }
}
