import type { TFunction } from 'i18next';
import { ORDER_KINDS } from '@iot/contract/plain';
import type { OrderKind, PriceDto } from '@iot/contract';
import { yuan } from './api';

/** The order kinds as select / radio options, in the UI language. */
export const orderKindOptions = (t: TFunction) => ORDER_KINDS.map((k) => ({ value: k, label: t(`cards:orders.kinds.${k}`) }));

/** "¥5.00 per card and month" (renewal) or "¥10.00 per card" (top-up). */
export const unitPrice = (t: TFunction, kind: OrderKind, cents: number) =>
  t(kind === 'renewal' ? 'cards:prices.perMonth' : 'cards:prices.perCard', { price: yuan(cents) });

/** "Renewal · IoT 1GB · ¥5.00 per card and month", "Data top-up · 1 GB add-on · 1024 MB · ¥10.00 per card". */
export function priceLabel(t: TFunction, p: PriceDto) {
  const size = p.kind === 'topup' ? ` · ${p.topupMb} MB` : '';
  return `${t(`cards:orders.kinds.${p.kind}`)} · ${p.plan}${size} · ${unitPrice(t, p.kind, p.unitPriceCents)}`;
}
