import crypto from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import { NotificationRefused, PaymentProviderError, checkNotifyTimestamp, header, notifyJson, type PaymentNotice, type PaymentProvider } from './payment.js';
import { readTransaction } from './payment.simulated.js';

export interface WechatPayOptions {
  baseUrl: string;
  appId: string;
  mchId: string;
  /** Serial number of the merchant's API certificate. */
  serialNo: string;
  /** The merchant's API private key (PEM). */
  privateKey: string;
  /**
   * WeChat Pay's platform certificates or public keys (PEM) that verify notifications, each with
   * the serial the platform names in `Wechatpay-Serial`: a certificate's own serial number, or the
   * id of a public key (PUB_KEY_ID_…). During a key rotation both the old and the new are listed.
   * A public key given without its id verifies notifications of any serial (a single-key setup).
   */
  platformKeys: { serial?: string; pem: string }[];
  /** The APIv3 key: decrypts the notification's resource (AEAD_AES_256_GCM). */
  apiV3Key: string;
  notifyUrl: string;
}

export function wechatOptionsFromFiles(
  c: Omit<WechatPayOptions, 'privateKey' | 'platformKeys'> & { privateKeyFile: string; platformKeyFiles: { serial?: string; file: string }[] },
): WechatPayOptions {
  const { privateKeyFile, platformKeyFiles: files, ...rest } = c;
  return {
    ...rest,
    privateKey: fs.readFileSync(privateKeyFile, 'utf8'),
    platformKeys: files.map((f) => ({ serial: f.serial, pem: fs.readFileSync(f.file, 'utf8') })),
  };
}

/**
 * The notification around the encrypted transaction: a field missing, empty or of another type
 * (a null ciphertext, an empty nonce, which the cipher itself throws on) is refused.
 */
const notificationSchema = z.object({
  resource: z.object({
    ciphertext: z.string().min(1).max(64 * 1024),
    nonce: z.string().min(1).max(64),
    associated_data: z.string().max(1024).nullish(),
  }),
});

/** Any serial: a public key configured without its id. */
const ANY_SERIAL = '*';

/** Serial (upper case) → verifying key; a certificate's serial is read from it unless given. */
function keysBySerial(entries: { serial?: string; pem: string }[]): Map<string, crypto.KeyObject> {
  const keys = new Map<string, crypto.KeyObject>();
  for (const e of entries) {
    const cert = e.pem.includes('CERTIFICATE') ? new crypto.X509Certificate(e.pem) : undefined;
    const serial = e.serial ?? cert?.serialNumber ?? ANY_SERIAL;
    keys.set(serial.toUpperCase(), cert ? cert.publicKey : crypto.createPublicKey(e.pem));
  }
  if (keys.size === 0) throw new Error('WeChat Pay needs at least one platform certificate or public key');
  return keys;
}

/**
 * WeChat Pay API v3, Native payment (PAYMENT_PROVIDER=wechat): `POST /v3/pay/transactions/native`
 * signed WECHATPAY2-SHA256-RSA2048 with the merchant key answers the `code_url` the customer
 * scans; the notification is verified with the platform key (RSA-SHA256 over
 * timestamp\nnonce\nbody\n) and its resource decrypted with the APIv3 key.
 */
export class WechatPayments implements PaymentProvider {
  readonly name = 'wechat';
  private readonly platformKeys: Map<string, crypto.KeyObject>;

  constructor(private readonly opts: WechatPayOptions) {
    this.platformKeys = keysBySerial(opts.platformKeys);
  }

  authorization(method: string, pathWithQuery: string, body: string, now = Date.now()): string {
    const timestamp = String(Math.floor(now / 1000));
    const nonce = crypto.randomBytes(16).toString('hex');
    const signature = crypto
      .createSign('RSA-SHA256')
      .update(`${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`)
      .sign(this.opts.privateKey, 'base64');
    return (
      `WECHATPAY2-SHA256-RSA2048 mchid="${this.opts.mchId}",nonce_str="${nonce}",` +
      `signature="${signature}",timestamp="${timestamp}",serial_no="${this.opts.serialNo}"`
    );
  }

  /** A signed JSON POST to the platform; an unreachable platform is a PaymentProviderError. */
  private async post(path: string, body: string): Promise<Response> {
    try {
      return await fetch(`${this.opts.baseUrl.replace(/\/$/, '')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: this.authorization('POST', path, body) },
        body,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new PaymentProviderError(`WeChat Pay cannot be reached: ${(err as Error).message}`);
    }
  }

  async createNative(order: { orderNo: string; amountCents: number; description: string; payBefore: Date }) {
    const path = '/v3/pay/transactions/native';
    const body = JSON.stringify({
      appid: this.opts.appId,
      mchid: this.opts.mchId,
      description: order.description.slice(0, 127),
      out_trade_no: order.orderNo,
      time_expire: order.payBefore.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      notify_url: this.opts.notifyUrl,
      amount: { total: order.amountCents, currency: 'CNY' },
    });
    const res = await this.post(path, body);
    const answer = (await res.json().catch(() => ({}))) as { code_url?: string; code?: string; message?: string };
    if (!res.ok || !answer.code_url) throw new PaymentProviderError(`${answer.code ?? res.status}: ${answer.message ?? 'no code_url'}`);
    return { codeUrl: answer.code_url };
  }

  /** `POST /v3/pay/transactions/out-trade-no/{out_trade_no}/close`: answered 204 when closed. */
  async close(orderNo: string) {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`;
    const body = JSON.stringify({ mchid: this.opts.mchId });
    const res = await this.post(path, body);
    if (res.ok) return; // 204 No Content
    const answer = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    throw new PaymentProviderError(`${answer.code ?? res.status}: ${answer.message ?? 'the payment was not closed'}`);
  }

  readNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): PaymentNotice {
    const timestamp = header(headers, 'wechatpay-timestamp');
    const nonce = header(headers, 'wechatpay-nonce');
    const signature = header(headers, 'wechatpay-signature');
    // The key the platform says it signed with: a serial we do not hold is a rotation we have not
    // configured yet (or a forgery); it is refused, logged, and the platform retries later.
    const serial = header(headers, 'wechatpay-serial').toUpperCase();
    const key = this.platformKeys.get(serial) ?? this.platformKeys.get(ANY_SERIAL);
    if (!key) throw new NotificationRefused('badSignature', `unknown platform key serial ${serial.slice(0, 64) || '(none)'}`);
    const valid =
      signature !== '' &&
      crypto.createVerify('RSA-SHA256').update(`${timestamp}\n${nonce}\n${rawBody}\n`).verify(key, signature, 'base64');
    if (!valid) throw new NotificationRefused('badSignature', 'the platform signature does not verify');
    checkNotifyTimestamp(timestamp);
    const notice = notificationSchema.safeParse(notifyJson(rawBody, 'the notification'));
    if (!notice.success) throw new NotificationRefused('badSignature', 'no encrypted resource in the notification');
    const { resource } = notice.data;
    const data = Buffer.from(resource.ciphertext, 'base64');
    if (data.length <= 16) throw new NotificationRefused('badSignature', 'the resource is too short');
    let plain: string;
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', Buffer.from(this.opts.apiV3Key), Buffer.from(resource.nonce));
      decipher.setAuthTag(data.subarray(data.length - 16));
      decipher.setAAD(Buffer.from(resource.associated_data ?? ''));
      plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      throw new NotificationRefused('badSignature', 'the resource does not decrypt with the APIv3 key');
    }
    return readTransaction(notifyJson(plain, 'the decrypted resource'), { mchId: this.opts.mchId, appId: this.opts.appId });
  }
}
