import type { PaymentOutcome } from '@iot/contract';

/** A payment the provider reports, read from its verified notification. */
export interface PaymentNotice {
  /** Our order number (out_trade_no). */
  orderNo: string;
  /** The provider's transaction id. */
  transactionId: string;
  /** What the customer paid, in cents. */
  amountCents: number;
  /** The provider's trade state was SUCCESS. */
  success: boolean;
  paidAt: Date;
}

/**
 * A payment provider of card orders (docs/decisions/0018-card-orders-paid-once.md): creates a Native-style
 * payment that the customer scans as a QR code (`code_url`), and reads the provider's signed
 * notification of the payment. Implementations: WeChat Pay API v3 (payment.wechat.ts) and the
 * simulated provider (payment.simulated.ts) for the demo and tests.
 */
export interface PaymentProvider {
  readonly name: string;
  createNative(order: { orderNo: string; amountCents: number; description: string; payBefore: Date }): Promise<{ codeUrl: string }>;
  /**
   * Closes an unpaid payment so its QR code can no longer be paid (before an order is cancelled,
   * deleted or its terms change); throws PaymentProviderError when the provider does not confirm.
   */
  close(orderNo: string): Promise<void>;
  /** Verifies the notification's signature and reads it; throws NotificationRefused. */
  readNotification(headers: Record<string, string | string[] | undefined>, rawBody: string): PaymentNotice;
}

/** A notification that cannot be trusted or read: logged with its outcome and refused. */
export class NotificationRefused extends Error {
  constructor(
    readonly outcome: Extract<PaymentOutcome, 'badSignature'>,
    message: string,
  ) {
    super(message);
  }
}

/** The provider could not create the payment (network, refusal): shown to the user. */
export class PaymentProviderError extends Error {}

export const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const v = headers[name.toLowerCase()];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

/** Notifications older or newer than this are refused (replayed captures). */
export const NOTIFY_MAX_SKEW_MS = 5 * 60_000;

/**
 * Refuses a `Wechatpay-Timestamp` that is not whole seconds since the epoch (`Number("abc")` is
 * NaN, and NaN is never "too far", so such a timestamp used to skip the check) or that is more
 * than NOTIFY_MAX_SKEW_MS from now.
 */
export function checkNotifyTimestamp(timestamp: string, now = Date.now()): void {
  if (!/^\d{1,12}$/.test(timestamp)) throw new NotificationRefused('badSignature', 'the timestamp is not a number of seconds');
  if (Math.abs(now - Number(timestamp) * 1000) > NOTIFY_MAX_SKEW_MS) {
    throw new NotificationRefused('badSignature', 'the timestamp is too old or too new');
  }
}

/** JSON the provider sent (after its signature verified); anything unreadable is refused. */
export function notifyJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NotificationRefused('badSignature', `${what} is not JSON`);
  }
}
