import type { CarrierConfig, PaymentConfig } from '../../config.js';
import type { CarrierAdapter } from './carrier.js';
import { OneLinkCarrier } from './carrier.onelink.js';
import { SimulatedCarrier } from './carrier.simulated.js';
import type { PaymentProvider } from './payment.js';
import { SimulatedPayments } from './payment.simulated.js';
import { WechatPayments, wechatOptionsFromFiles } from './payment.wechat.js';

/** The carrier adapter CARRIER names (config.ts). */
export function carrierFrom(c: CarrierConfig): CarrierAdapter {
  return c.kind === 'onelink' ? new OneLinkCarrier(c) : new SimulatedCarrier(c.whitelistMax);
}

/** The payment provider PAYMENT_PROVIDER names (config.ts). */
export function paymentsFrom(c: PaymentConfig): PaymentProvider {
  return c.kind === 'wechat' ? new WechatPayments(wechatOptionsFromFiles(c)) : new SimulatedPayments();
}
