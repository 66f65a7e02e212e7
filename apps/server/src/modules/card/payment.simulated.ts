import crypto from 'node:crypto';
import { z } from 'zod';
import { INT4_MAX } from '@iot/contract';
import { NotificationRefused, checkNotifyTimestamp, header, notifyJson, type PaymentNotice, type PaymentProvider } from './payment.js';

/**
 * The simulated payment provider (PAYMENT_PROVIDER=simulated, the default). Its `code_url` is a
 * made-up WeChat-style address; its notifications have WeChat Pay v3's shape and headers
 * (Wechatpay-Timestamp, -Nonce, -Signature) but are signed with HMAC-SHA256 under a secret of
 * this process instead of the platform's RSA key. `pay()` builds the notification the console's
 * "simulate payment" button delivers.
 */
export class SimulatedPayments implements PaymentProvider {
  readonly name = 'simulated';
  private readonly secret: Buffer;

  constructor(secret?: string) {
    this.secret = secret ? Buffer.from(secret) : crypto.randomBytes(32);
  }

  /** Payments closed by the console: their customer can no longer pay them. */
  private readonly closed = new Set<string>();

  async createNative(order: { orderNo: string }) {
    return { codeUrl: `weixin://wxpay/bizpayurl?pr=SIM${order.orderNo}` };
  }

  async close(orderNo: string) {
    this.closed.add(orderNo);
  }

  /** The customer may still pay this order's QR code. */
  payable(orderNo: string): boolean {
    return !this.closed.has(orderNo);
  }

  sign(timestamp: string, nonce: string, body: string): string {
    return crypto.createHmac('sha256', this.secret).update(`${timestamp}\n${nonce}\n${body}\n`).digest('base64');
  }

  /** A signed notification of a payment of `amountCents` for the order. */
  pay(orderNo: string, amountCents: number, now = Date.now()) {
    const body = JSON.stringify({
      out_trade_no: orderNo,
      transaction_id: `4200${now}${crypto.randomInt(1000, 9999)}`,
      trade_state: 'SUCCESS',
      success_time: new Date(now).toISOString(),
      amount: { total: amountCents, currency: 'CNY' },
    });
    const timestamp = String(Math.floor(now / 1000));
    const nonce = crypto.randomBytes(16).toString('hex');
    return {
      body,
      headers: {
        'wechatpay-timestamp': timestamp,
        'wechatpay-nonce': nonce,
        'wechatpay-signature': this.sign(timestamp, nonce, body),
        'wechatpay-serial': 'SIMULATED',
      },
    };
  }

  readNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): PaymentNotice {
    const timestamp = header(headers, 'wechatpay-timestamp');
    const nonce = header(headers, 'wechatpay-nonce');
    const given = Buffer.from(header(headers, 'wechatpay-signature'), 'base64');
    const expected = Buffer.from(this.sign(timestamp, nonce, rawBody), 'base64');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      throw new NotificationRefused('badSignature', 'the signature does not match');
    }
    checkNotifyTimestamp(timestamp);
    return readTransaction(notifyJson(rawBody, 'the notification'));
  }
}

/**
 * WeChat Pay v3's transaction object (the decrypted resource), strictly typed: a field of another
 * type (an amount in text, a number as order number) is a malformed notification, refused, never
 * coerced. Unknown fields (payer, promotion_detail, …) are ignored.
 */
const transactionSchema = z.object({
  out_trade_no: z.string().min(1).max(64),
  transaction_id: z.string().max(64).default(''),
  trade_state: z.string().max(32),
  success_time: z.string().max(64).optional(),
  amount: z.object({
    total: z.number().int().min(0).max(INT4_MAX),
    currency: z.string().max(16).optional(),
  }),
  mchid: z.string().max(64).optional(),
  appid: z.string().max(64).optional(),
});
export type Transaction = z.infer<typeof transactionSchema>;

/** The transaction as a PaymentNotice; `owner`, when given, is the merchant and app it must be of. */
export function readTransaction(value: unknown, owner?: { mchId: string; appId: string }): PaymentNotice {
  const parsed = transactionSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new NotificationRefused('badSignature', `malformed transaction: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const t = parsed.data;
  // A transaction of another merchant or app signed by the same platform is not ours.
  if (owner && t.mchid !== undefined && t.mchid !== owner.mchId) throw new NotificationRefused('badSignature', 'another merchant');
  if (owner && t.appid !== undefined && t.appid !== owner.appId) throw new NotificationRefused('badSignature', 'another app');
  if (t.amount.currency !== undefined && t.amount.currency !== 'CNY') {
    throw new NotificationRefused('badSignature', `a payment in ${JSON.stringify(t.amount.currency)}, orders are in CNY`);
  }
  const paidAt = t.success_time !== undefined ? new Date(t.success_time) : new Date();
  if (Number.isNaN(paidAt.getTime())) throw new NotificationRefused('badSignature', 'success_time is not a time');
  return {
    orderNo: t.out_trade_no,
    transactionId: t.transaction_id,
    amountCents: t.amount.total,
    success: t.trade_state === 'SUCCESS',
    paidAt,
  };
}
