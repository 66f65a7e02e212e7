import { ErrorCode, type EndpointParsedBody, type EndpointParsedQuery, type OrderKind, type Page, type PriceDto, type cardPriceApi } from '@iot/contract';
import type { Db } from '../../db/client.js';
import { conflict, notFound, refuse } from '../../lib/errors.js';
import { audit, type Actor } from '../audit/audit.service.js';
import * as repo from './price.repo.js';

function toDto(r: repo.PriceRow): PriceDto {
  return {
    id: r.id,
    kind: r.kind as OrderKind,
    plan: r.plan,
    topupMb: r.topupMb,
    unitPriceCents: r.unitPriceCents,
    enabled: r.enabled,
    remarks: r.remarks,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * The card price list. Orders copy a price's terms when they are made, so changing or deleting a
 * price never changes what an existing order costs. Platform-wide: the payments land in one
 * merchant account, and card:price is a SUPERADMIN permission unless it grants it on.
 */
export class PriceService {
  constructor(private readonly db: Db) {}

  async list(q: EndpointParsedQuery<typeof cardPriceApi.list>): Promise<Page<PriceDto>> {
    const res = await repo.listPrices(this.db, q);
    return { total: res.total, items: res.items.map(toDto) };
  }

  async options(): Promise<PriceDto[]> {
    return (await repo.enabledPrices(this.db)).map(toDto);
  }

  /** The price an order is made at: it exists and is offered. */
  async orderable(id: number): Promise<repo.PriceRow> {
    const [price] = await repo.findPrices(this.db, [id]);
    if (!price) throw refuse(ErrorCode.VALIDATION, 'priceNotFound', { field: 'priceId' });
    if (!price.enabled) throw refuse(ErrorCode.VALIDATION, 'priceDisabled', { field: 'priceId' });
    return price;
  }

  async create(actor: Actor, body: EndpointParsedBody<typeof cardPriceApi.add>) {
    const topupMb = body.kind === 'topup' ? body.topupMb : 0;
    return this.db.transaction(async (tx) => {
      const id = await repo.insertPrice(tx, { ...body, topupMb });
      await audit(tx, actor, { entityId: id, name: body.plan, summary: { kind: body.kind, topupMb, unitPriceCents: body.unitPriceCents } });
      return id;
    });
  }

  async edit(actor: Actor, body: EndpointParsedBody<typeof cardPriceApi.edit>) {
    const { id, ...set } = body;
    const [current] = await repo.findPrices(this.db, [id]);
    if (!current) throw notFound('priceNotFound');
    if (current.kind === 'renewal') delete set.topupMb;
    else if (set.topupMb !== undefined && set.topupMb < 1) throw refuse(ErrorCode.VALIDATION, 'invalidValue', { field: 'topupMb' });
    await this.db.transaction(async (tx) => {
      await repo.updatePrice(tx, id, set);
      await audit(tx, actor, { entityId: id, name: current.plan, summary: set });
    });
  }

  async remove(actor: Actor, ids: number[]) {
    const rows = await repo.findPrices(this.db, ids);
    if (rows.length !== new Set(ids).size) throw notFound('priceNotFound');
    return this.db.transaction(async (tx) => {
      const n = await repo.deletePrices(tx, ids);
      if (n !== rows.length) throw conflict('priceNotFound');
      await audit(tx, actor, { entityId: ids.join(','), name: rows.map((r) => r.plan).join(', ') });
      return n;
    });
  }
}
