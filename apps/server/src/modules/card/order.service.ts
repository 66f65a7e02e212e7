import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  CARD_LIMITS,
  ErrorCode,
  type EndpointParsedBody,
  type EndpointParsedQuery,
  type OrderDto,
  type OrderKind,
  type OrderStatus,
  type Page,
  type PaymentOutcome,
  type PayQr,
  type cardOrderApi,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import { conflict, notFound, refuse } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { CardService } from './card.service.js';
import type { PriceService } from './price.service.js';
import * as cardRepo from './card.repo.js';
import * as repo from './order.repo.js';
import { NotificationRefused, PaymentProviderError, type PaymentProvider } from './payment.js';
import { SimulatedPayments } from './payment.simulated.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function toDto(r: repo.OrderRow): OrderDto {
  return {
    id: r.id,
    orderNo: r.orderNo,
    kind: r.kind as OrderKind,
    plan: r.plan,
    months: r.months,
    topupMb: r.topupMb,
    unitPriceCents: r.unitPriceCents,
    priceId: r.priceId,
    amountCents: r.amountCents,
    status: r.status as OrderStatus,
    cardCount: r.cardCount,
    iccids: r.iccids,
    remarks: r.remarks,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    payBefore: r.payBefore.toISOString(),
    paidAt: iso(r.paidAt),
    provider: r.provider,
    transactionId: r.transactionId,
  };
}

/** Renewals: price × months × cards; top-ups: price × cards. At most CARD_LIMITS.amountCents. */
function amountOf(o: { kind: OrderKind; months: number; unitPriceCents: number }, cardCount: number) {
  if (o.kind === 'renewal' && o.months < 1) throw refuse(ErrorCode.VALIDATION, 'invalidValue', { field: 'months' });
  const amount = o.unitPriceCents * cardCount * (o.kind === 'renewal' ? o.months : 1);
  if (amount > CARD_LIMITS.amountCents) {
    throw refuse(ErrorCode.VALIDATION, 'invalidValue', { field: 'cardIds', params: { max: CARD_LIMITS.amountCents } });
  }
  return amount;
}

/** An order's terms from a price list entry: the caller chooses the price, never the amount. */
const termsOf = (price: { id: number; kind: string; plan: string; topupMb: number; unitPriceCents: number }, months: number) => {
  const kind = price.kind as OrderKind;
  return {
    priceId: price.id,
    kind,
    plan: price.plan,
    months: kind === 'renewal' ? months : 0,
    topupMb: kind === 'topup' ? price.topupMb : 0,
    unitPriceCents: price.unitPriceCents,
  };
};

/** A merchant order number: C + UTC time to the second + 8 random digits (out_trade_no, ≤ 32). */
function newOrderNo(now = new Date()) {
  return `C${now.toISOString().replace(/\D/g, '').slice(0, 14)}${crypto.randomInt(0, 100_000_000).toString().padStart(8, '0')}`;
}

/** What the notification route answers the provider (WeChat Pay v3: 200 SUCCESS, 4xx FAIL). */
export interface NotifyAnswer {
  status: 200 | 400;
  outcome: PaymentOutcome;
  body: { code: 'SUCCESS' | 'FAIL'; message: string };
}

/**
 * Card orders: renewals and top-ups of cards the caller may change, their payment through the
 * payment provider (QR code of its `code_url`) and the provider's notification, which marks an
 * order paid exactly once and extends its cards. Unpaid orders expire after ORDER_PAY_TIMEOUT.
 * Every notification is written to the payment log (`card_payment_events`), refusals included.
 */
export class OrderService {
  constructor(
    private readonly db: Db,
    private readonly cards: CardService,
    private readonly prices: PriceService,
    readonly payments: PaymentProvider,
    private readonly log: FastifyBaseLogger,
    private readonly opts: { payTimeoutMs: number },
  ) {}

  expireDue(): Promise<number> {
    return repo.expireDue(this.db);
  }

  async list(ctx: AuthContext, q: EndpointParsedQuery<typeof cardOrderApi.list>): Promise<Page<OrderDto>> {
    await this.expireDue();
    const res = await repo.listOrders(this.db, { ...q, scopePath: scopeOf(ctx) });
    return { total: res.total, exact: res.exact, items: res.items.map(toDto) };
  }

  private async visible(ctx: AuthContext, ids: number[]) {
    const rows = await repo.findOrders(this.db, ids, scopeOf(ctx));
    if (rows.length !== ids.length) {
      throw notFound('ordersNotFound', { ids: ids.filter((id) => !rows.some((r) => r.id === id)).join(', ') });
    }
    return rows;
  }

  /** One order with its cards; an unknown one answers §8's "no card order data". */
  async item(ctx: AuthContext, id: number) {
    await this.expireDue();
    const [row] = await repo.findOrders(this.db, [id], scopeOf(ctx));
    if (!row) throw notFound('noCardOrderData');
    const items = await repo.orderItems(this.db, id);
    return {
      ...toDto(row),
      items: items.map((i) => ({ cardId: i.cardId, iccid: i.iccid, msisdn: i.msisdn, expiresBefore: i.expiresBefore, expiresAfter: i.expiresAfter })),
    };
  }

  async create(actor: Actor, body: EndpointParsedBody<typeof cardOrderApi.add>) {
    const ids = [...new Set(body.cardIds)];
    const rows = await this.cards.manageable(actor, ids);
    const terms = termsOf(await this.prices.orderable(body.priceId), body.months);
    const amountCents = amountOf(terms, rows.length);
    const orderNo = newOrderNo();
    const id = await this.db.transaction(async (tx) => {
      const orderId = await repo.insertOrder(
        tx,
        {
          orderNo, ...terms, amountCents, remarks: body.remarks,
          ownerPath: actor.path, createdBy: actor.userId, createdByName: actor.username, provider: this.payments.name,
          payBefore: new Date(Date.now() + this.opts.payTimeoutMs),
        },
        rows.map((c) => ({ cardId: c.id, iccid: c.iccid, msisdn: c.msisdn, expiresBefore: c.expiresAt })),
      );
      await audit(tx, actor, { entityId: orderId, name: orderNo, summary: { ...terms, amountCents, iccids: rows.map((c) => c.iccid) } });
      return orderId;
    });
    return { id, orderNo, amountCents };
  }

  /**
   * An unpaid order's terms (another price of its kind, months, remarks; its amount follows; a QR
   * code already issued is closed at the provider and the order gets a new number, so the old code
   * can no longer be paid), or a status change: `cancelled` (unpaid; its QR code closed first) or
   * `refunded` (paid: the cards go back to the expiry, plan and data the order found). Each write
   * is guarded by the status it was decided on: a payment that lands meanwhile wins.
   */
  async edit(actor: Actor, body: EndpointParsedBody<typeof cardOrderApi.edit>) {
    await this.expireDue();
    const [order] = await this.visible(actor, [body.id]);
    const { id, status, priceId, months, remarks } = body;
    const from = status === 'refunded' ? 'paid' : 'unpaid';
    if (order!.status !== from) throw conflict(status === 'refunded' ? 'orderNotPaid' : 'orderNotUnpaid');
    if (status === 'refunded') return this.refund(actor, order!);
    const kind = order!.kind as OrderKind;
    let terms = { priceId: order!.priceId, kind, plan: order!.plan, months: order!.months, topupMb: order!.topupMb, unitPriceCents: order!.unitPriceCents };
    if (!status && priceId !== undefined && priceId !== order!.priceId) {
      const price = await this.prices.orderable(priceId);
      if (price.kind !== kind) throw refuse(ErrorCode.VALIDATION, 'priceKindMismatch', { field: 'priceId' });
      terms = termsOf(price, order!.months);
    }
    if (kind === 'renewal' && months !== undefined) terms.months = months;
    const amountCents = status ? order!.amountCents : amountOf(terms, order!.cardCount);
    // A QR code already shown stays payable only while the terms it was issued for stand: a
    // cancellation or new terms close it (new terms also take a new number); remarks do not.
    const termsChanged = !status && (amountCents !== order!.amountCents || terms.priceId !== order!.priceId || terms.months !== order!.months);
    const reissue = Boolean(order!.codeUrl) && (status !== undefined || termsChanged);
    if (reissue) await this.closeAtProvider(order!.orderNo);
    await this.db.transaction(async (tx) => {
      const changed = await repo.updateOrder(
        tx,
        id,
        status
          ? { status }
          : {
              ...terms,
              amountCents,
              ...(remarks !== undefined ? { remarks } : {}),
              ...(reissue ? { codeUrl: null, orderNo: newOrderNo() } : {}),
            },
        from,
      );
      if (!changed) throw conflict('orderNotUnpaid');
      await audit(tx, actor, { entityId: id, name: order!.orderNo, summary: status ? { status } : { ...terms, amountCents, remarks } });
    });
  }

  /** A paid order refunded: recorded, and what it gave the cards is taken back in the same transaction. */
  private async refund(actor: Actor, order: repo.OrderRow) {
    await this.db.transaction(async (tx) => {
      if (!(await repo.updateOrder(tx, order.id, { status: 'refunded' }, 'paid'))) throw conflict('orderNotPaid');
      let reverted: { id: number; expires_at: string | null }[] = [];
      if (order.kind === 'renewal') reverted = await repo.revertRenewal(tx, order.id, order.months, order.plan);
      else await cardRepo.addAllowance(tx, await repo.itemCardIds(tx, order.id), -order.topupMb);
      await audit(tx, actor, {
        entityId: order.id,
        name: order.orderNo,
        summary: { status: 'refunded', ...(order.kind === 'renewal' ? { expiresAt: reverted.map((r) => r.expires_at) } : { topupMb: -order.topupMb }) },
      });
    });
  }

  async remove(actor: Actor, ids: number[]) {
    await this.expireDue();
    const rows = await this.visible(actor, ids);
    if (rows.some((r) => r.status === 'paid' || r.status === 'refunded')) throw conflict('orderKeepsRecord');
    for (const r of rows) if (r.status === 'unpaid' && r.codeUrl) await this.closeAtProvider(r.orderNo);
    await this.db.transaction(async (tx) => {
      // Only orders still without a payment: one paid meanwhile keeps its record.
      const n = await repo.deleteOrders(tx, ids);
      if (n !== ids.length) throw conflict('orderKeepsRecord');
      await audit(tx, actor, { entityId: ids.join(','), name: rows.map((r) => r.orderNo).join(', ') });
    });
    return ids.length;
  }

  /** Closes an issued payment at the provider, so its QR code can no longer be paid. */
  private async closeAtProvider(orderNo: string) {
    try {
      await this.payments.close(orderNo);
    } catch (err) {
      if (err instanceof PaymentProviderError) throw refuse(ErrorCode.CONFLICT, 'paymentProviderFailed', { params: { message: err.message } });
      throw err;
    }
  }

  /** The QR code of an unpaid order: the provider's code_url (asked once, reused while payable). */
  async payQr(ctx: AuthContext, id: number): Promise<PayQr> {
    await this.expireDue();
    const [order] = await this.visible(ctx, [id]);
    if (order!.status !== 'unpaid') throw conflict('orderNotUnpaid');
    let codeUrl = order!.codeUrl;
    if (!codeUrl) {
      try {
        codeUrl = (
          await this.payments.createNative({
            orderNo: order!.orderNo,
            amountCents: order!.amountCents,
            description: `SIM ${order!.kind} ${order!.orderNo}`,
            payBefore: order!.payBefore,
          })
        ).codeUrl;
      } catch (err) {
        if (err instanceof PaymentProviderError) throw refuse(ErrorCode.CONFLICT, 'paymentProviderFailed', { params: { message: err.message } });
        throw err;
      }
      if (!(await repo.updateOrder(this.db, id, { codeUrl }, 'unpaid'))) throw conflict('orderNotUnpaid');
    }
    return { orderNo: order!.orderNo, codeUrl, amountCents: order!.amountCents, payBefore: order!.payBefore.toISOString(), provider: this.payments.name };
  }

  /**
   * The provider's notification: signature, then order and amount are checked; the order is
   * marked paid exactly once (a replay answers SUCCESS and changes nothing) and its cards are
   * extended in the same transaction. Every notification is logged with its outcome.
   */
  async notify(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<NotifyAnswer> {
    const provider = this.payments.name;
    const answer = async (
      outcome: PaymentOutcome,
      e: { orderNo?: string; amountCents?: number; transactionId?: string; detail?: string },
    ): Promise<NotifyAnswer> => {
      const refused = outcome === 'badSignature' || outcome === 'badAmount' || outcome === 'unknownOrder';
      if (outcome !== 'paid') this.log.warn({ outcome, ...e }, 'card payment notification not applied');
      await repo.logPayment(this.db, { orderNo: e.orderNo ?? '', provider, outcome, amountCents: e.amountCents, transactionId: e.transactionId, detail: e.detail });
      return refused
        ? { status: 400, outcome, body: { code: 'FAIL', message: e.detail ?? outcome } }
        : { status: 200, outcome, body: { code: 'SUCCESS', message: 'OK' } };
    };
    let notice;
    try {
      notice = this.payments.readNotification(headers, rawBody);
    } catch (err) {
      if (err instanceof NotificationRefused || err instanceof SyntaxError) return answer('badSignature', { detail: err.message });
      throw err;
    }
    const e = { orderNo: notice.orderNo, amountCents: notice.amountCents, transactionId: notice.transactionId };
    const order = await repo.orderByNo(this.db, notice.orderNo);
    if (!order) return answer('unknownOrder', { ...e, detail: 'no such order' });
    if (!notice.success) return answer('failed', { ...e, detail: 'the trade did not succeed' });
    if (notice.amountCents !== order.amountCents) return answer('badAmount', { ...e, detail: `paid ${notice.amountCents}, order is ${order.amountCents}` });
    const paid = await this.db.transaction(async (tx) => {
      const row = await repo.markPaid(tx, notice.orderNo, notice.transactionId, notice.paidAt, notice.amountCents);
      if (!row) return false;
      const ids = await repo.itemCardIds(tx, row.id);
      if (row.kind === 'renewal') {
        await repo.recordPlansBefore(tx, row.id);
        await repo.setItemExpiry(tx, row.id, await cardRepo.extendExpiry(tx, ids, row.months, row.plan));
      }
      else await cardRepo.addAllowance(tx, ids, row.topupMb);
      await repo.logPayment(tx, { ...e, provider, outcome: 'paid' });
      return true;
    });
    if (paid) return { status: 200, outcome: 'paid', body: { code: 'SUCCESS', message: 'OK' } };
    // Already paid (a replay of this or another notification), cancelled or expired meanwhile.
    const now = await repo.orderByNo(this.db, notice.orderNo);
    if (now?.status === 'paid') return answer('replay', { ...e, detail: now.transactionId === notice.transactionId ? 'already applied' : `already paid by ${now.transactionId}` });
    return answer('notPayable', { ...e, detail: `the order is ${now?.status}: refund the payment` });
  }

  /** The simulated provider's customer pays (demo and E2E): a signed notification is delivered. */
  async simulatePay(actor: Actor, body: EndpointParsedBody<typeof cardOrderApi.simulatePay>) {
    if (!(this.payments instanceof SimulatedPayments)) throw conflict('simulatedPaymentOnly');
    const [order] = await this.visible(actor, [body.id]);
    // A closed payment's QR code cannot be paid any more (the order was cancelled or changed).
    if (!this.payments.payable(order!.orderNo)) throw conflict('orderNotUnpaid');
    const n = this.payments.pay(order!.orderNo, body.amountCents ?? order!.amountCents);
    const res = await this.notify(n.headers, n.body);
    await this.db.transaction((tx) => audit(tx, actor, { entityId: body.id, name: order!.orderNo, summary: { outcome: res.outcome } }));
    return { outcome: res.outcome };
  }
}
