import crypto from 'node:crypto';
import { NOTIFY_MAX_SKEW_MS, NotificationRefused, header, type PaymentNotice, type PaymentProvider } from './payment.js';

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
    if (Math.abs(Date.now() - Number(timestamp) * 1000) > NOTIFY_MAX_SKEW_MS) {
      throw new NotificationRefused('badSignature', 'the timestamp is too old or too new');
    }
    return readTransaction(JSON.parse(rawBody) as Record<string, unknown>);
  }
}

/** WeChat Pay v3's transaction object (decrypted resource) as a PaymentNotice. */
export function readTransaction(t: Record<string, unknown>): PaymentNotice {
  const amount = (t.amount ?? {}) as { total?: unknown; currency?: unknown };
  if (amount.currency !== undefined && amount.currency !== 'CNY') {
    throw new NotificationRefused('badSignature', `a payment in ${String(amount.currency)}, orders are in CNY`);
  }
  const paidAt = t.success_time ? new Date(String(t.success_time)) : new Date();
  if (Number.isNaN(paidAt.getTime())) throw new NotificationRefused('badSignature', 'success_time is not a time');
  return {
    orderNo: String(t.out_trade_no ?? ''),
    transactionId: String(t.transaction_id ?? ''),
    amountCents: Number(amount.total ?? -1),
    success: t.trade_state === 'SUCCESS',
    paidAt,
  };
}
