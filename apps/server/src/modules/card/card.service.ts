import {
  cardRoutes,
  ErrorCode,
  type CardDto,
  type CardStatus,
  type EndpointParsedBody,
  type EndpointParsedQuery,
  type Page,
  type cardApi,
} from '@iot/contract';
import type { Db } from '../../db/client.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { AppError, conflict, forbidden, invalid, notFound, refuse } from '../../lib/errors.js';
import { mayCall } from '../../lib/can.js';
import { managesRow, scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import type { ProjectService } from '../project/project.service.js';
import { CarrierError, type CardRef, type CarrierAdapter } from './carrier.js';
import * as repo from './card.repo.js';

type Fields = EndpointParsedBody<typeof cardApi.add>;
type EditBody = EndpointParsedBody<typeof cardApi.edit>;
export type CardListQuery = EndpointParsedQuery<typeof cardApi.list>;

const iso = (d: Date) => d.toISOString();

/** What the caller may do with a card: `manageable`'s rule and the route's permission code. */
export function cardCan(ctx: AuthContext, r: Pick<repo.CardRow, 'ownerPath' | 'projectOwnerPath'>): CardDto['can'] {
  const manages = managesRow(ctx, r);
  return { edit: manages && mayCall(ctx, cardRoutes.edit), delete: manages && mayCall(ctx, cardRoutes.remove) };
}

export function toCardDto(ctx: AuthContext, r: repo.CardRow): CardDto {
  return {
    id: r.id,
    iccid: r.iccid,
    msisdn: r.msisdn,
    imsi: r.imsi,
    carrier: r.carrier as CardDto['carrier'],
    plan: r.plan,
    status: r.status as CardStatus,
    activatedAt: r.activatedAt,
    expiresAt: r.expiresAt,
    daysLeft: r.daysLeft === null ? null : Number(r.daysLeft),
    dataUsedMb: r.dataUsedMb,
    dataAllowanceMb: r.dataAllowanceMb,
    voiceUsedMin: r.voiceUsedMin,
    voiceAllowanceMin: r.voiceAllowanceMin,
    groupId: r.groupId,
    projectId: r.projectId,
    projectName: r.projectName,
    deviceId: r.device?.id ?? null,
    deviceName: r.device?.name ?? null,
    deviceSn: r.device?.sn ?? null,
    remarks: r.remarks,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    can: cardCan(ctx, r),
  };
}

/** The number a linked device carries as its SIM number: the MSISDN, else the ICCID. */
const numberOf = (c: { iccid: string; msisdn: string }) => c.msisdn || c.iccid;

interface Cached<T> {
  at: number;
  value: { ok: true; data: T } | { ok: false; error: { code: string; message: string } };
}

export interface CardOptions {
  /** How long a carrier answer is reused (CARRIER_CACHE_TTL). */
  cacheTtlMs: number;
}

/**
 * SIM cards: the registry (scoped like devices), the link to a device through its SIM number,
 * and the live carrier data behind a short cache. A carrier failure is an answer (`ok: false`
 * with the carrier's code and message), never an error of the page.
 */
export class CardService {
  private readonly cache = new Map<string, Cached<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly devices: DeviceService,
    private readonly projects: ProjectService,
    readonly carrier: CarrierAdapter,
    private readonly opts: CardOptions,
  ) {}

  async list(ctx: AuthContext, q: CardListQuery): Promise<Page<CardDto>> {
    const res = await repo.listCards(this.db, { ...q, scopePath: scopeOf(ctx) });
    return { total: res.total, exact: res.exact, items: res.items.map((r) => toCardDto(ctx, r)) };
  }

  /** Cards expiring within `days` (expired included), soonest first. */
  expiring(ctx: AuthContext, q: EndpointParsedQuery<typeof cardApi.expiring>) {
    return this.list(ctx, { page: q.page, limit: q.limit, expiringWithin: q.days, sort: 'expiresAt', order: 'asc' });
  }

  /** Visible cards by id; any id missing answers "not found" as a whole. */
  async visible(ctx: AuthContext, ids: number[]) {
    const rows = await repo.findCards(this.db, ids, scopeOf(ctx));
    if (rows.length !== ids.length) {
      const missing = ids.filter((id) => !rows.some((r) => r.id === id));
      throw notFound('cardsNotFound', { ids: missing.slice(0, 20).join(', ') });
    }
    return rows;
  }

  /** Cards the caller may change: owned in its subtree, or in a project owned there. */
  async manageable(ctx: AuthContext, ids: number[]) {
    const rows = await this.visible(ctx, ids);
    const shared = rows.filter((c) => !managesRow(ctx, c));
    if (shared.length > 0) throw forbidden('cardsSharedOnly', { iccids: shared.map((c) => c.iccid).join(', ') });
    return rows;
  }

  async item(ctx: AuthContext, id: number) {
    return toCardDto(ctx, (await this.visible(ctx, [id]))[0]!);
  }

  /** The owner line a card in this project gets (the project owner's), checked as the device's is. */
  private async projectLine(ctx: AuthContext, projectId: number) {
    try {
      const p = await this.projects.manageable(ctx, projectId);
      return { ownerPath: p.ownerPath, name: p.name };
    } catch (err) {
      if (err instanceof AppError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.FORBIDDEN)) {
        throw invalid('projectId', 'noProject');
      }
      throw err;
    }
  }

  /** A phone number or IMSI is one card's, platform-wide (the carrier addresses cards by them). */
  private async numbersFree(f: { msisdn?: string; imsi?: string }, exceptId?: number) {
    const field = await repo.numberTaken(this.db, f, exceptId);
    if (field) throw conflict('duplicateValue', { field });
  }

  /** A device may take the card's number unless another device already carries it. */
  private async checkFree(actor: AuthContext, numbers: string[], ...mayHold: (number | null)[]) {
    const other = (await this.devices.simHolders(numbers)).find((d) => !mayHold.includes(d.id));
    if (!other) return;
    // The device is named only to a caller who may see it: trying numbers must not reveal the
    // SNs of other lines' devices.
    const seen = (await this.devices.visibleIds(actor, [other.id])).length > 0;
    throw refuse(ErrorCode.CONFLICT, 'simInOtherDevice', { params: { sn: seen ? other.sn : '—' }, field: 'deviceId' });
  }

  async create(actor: Actor, f: Fields) {
    const project = f.projectId ? await this.projectLine(actor, f.projectId) : undefined;
    if (await repo.iccidTaken(this.db, f.iccid)) throw iccidTaken(f.iccid);
    await this.numbersFree(f);
    const device = f.deviceId ? await this.devices.linkable(actor, f.deviceId) : undefined;
    if (device) await this.checkFree(actor, [f.iccid, f.msisdn], device.id);
    const { deviceId, ...card } = f;
    return this.db
      .transaction(async (tx) => {
        const id = await repo.insertCard(tx, { ...card, ownerPath: project?.ownerPath ?? actor.path });
        if (device) await this.devices.setSimNumber(tx, device, numberOf(f));
        await audit(tx, actor, { entityId: id, name: f.iccid, summary: { ...card, projectId: undefined, project: project?.name ?? null, deviceId } });
        return { id };
      })
      .catch(iccidRace(f.iccid));
  }

  /**
   * Changes the fields sent. The link follows the numbers: a new device gets the card's number
   * (the old device's SIM number is cleared), `deviceId: null` clears the linked device's, and a
   * new ICCID or MSISDN is carried over to the linked device.
   */
  async edit(actor: Actor, body: EditBody) {
    const [current] = await this.manageable(actor, [body.id]);
    const { id, deviceId, ...f } = body;
    const project = f.projectId && f.projectId !== current!.projectId ? await this.projectLine(actor, f.projectId) : undefined;
    if (f.iccid !== undefined && (await repo.iccidTaken(this.db, f.iccid, id))) throw iccidTaken(f.iccid);
    await this.numbersFree(f, id);
    const next = { iccid: f.iccid ?? current!.iccid, msisdn: f.msisdn ?? current!.msisdn };
    const linked = current!.device?.id ?? null;
    const target = deviceId === undefined ? linked : deviceId;
    const old = linked && linked !== target ? await this.devices.linkable(actor, linked) : undefined;
    const device = target && (target !== linked || numberOf(next) !== numberOf(current!)) ? await this.devices.linkable(actor, target) : undefined;
    if (target) await this.checkFree(actor, [next.iccid, next.msisdn], target, linked);
    await this.db
      .transaction(async (tx) => {
        await repo.updateCard(tx, id, { ...f, ...(project ? { ownerPath: project.ownerPath } : {}) });
        if (old) await this.devices.setSimNumber(tx, old, '');
        if (device) await this.devices.setSimNumber(tx, device, numberOf(next));
        await audit(tx, actor, { entityId: id, name: current!.iccid, summary: { ...f, ...(deviceId !== undefined ? { deviceId } : {}) } });
      })
      .catch(iccidRace(next.iccid));
    this.forget(id);
  }

  /** Deletes cards; their devices keep their SIM numbers (the device's own record). */
  async remove(actor: Actor, ids: number[]) {
    const rows = await this.manageable(actor, ids);
    await this.db.transaction(async (tx) => {
      await repo.deleteCards(tx, ids);
      await audit(tx, actor, { entityId: ids.join(','), name: rows.map((r) => r.iccid).join(', '), summary: { iccid: rows.map((r) => r.iccid) } });
    });
    for (const id of ids) this.forget(id);
    return ids.length;
  }

  // ---- live carrier data --------------------------------------------------------------------------

  private refOf(c: repo.CardRow): CardRef {
    return { msisdn: c.msisdn || undefined, iccid: c.iccid, imsi: c.imsi || undefined, groupId: c.groupId || undefined };
  }

  private forget(id: number) {
    for (const key of this.cache.keys()) if (key.endsWith(`:${id}`)) this.cache.delete(key);
  }

  /** One carrier call through the cache; a carrier failure is cached too (briefly), and answered. */
  private async live<T>(op: string, ctx: AuthContext, id: number, refresh: boolean, call: (ref: CardRef) => Promise<T>) {
    const [card] = await this.visible(ctx, [id]);
    const key = `${op}:${id}`;
    const now = Date.now();
    let entry = this.cache.get(key) as Cached<T> | undefined;
    const cached = !refresh && entry !== undefined && now - entry.at < this.opts.cacheTtlMs;
    if (!cached) {
      try {
        entry = { at: now, value: { ok: true, data: await call(this.refOf(card!)) } };
      } catch (err) {
        if (!(err instanceof CarrierError)) throw err;
        entry = { at: now, value: { ok: false, error: { code: err.code, message: err.message } } };
      }
      this.cache.set(key, entry);
      if (this.cache.size > 10_000) this.cache.delete(this.cache.keys().next().value!);
    }
    const v = entry!.value;
    return {
      ok: v.ok,
      data: v.ok ? v.data : null,
      error: v.ok ? null : v.error,
      fetchedAt: new Date(entry!.at).toISOString(),
      cached,
      carrier: this.carrier.name,
    };
  }

  basicInfo(ctx: AuthContext, id: number, refresh: boolean) {
    return this.live('basic', ctx, id, refresh, (ref) => this.carrier.basicInfo(ref));
  }

  voiceMargin(ctx: AuthContext, id: number, refresh: boolean) {
    return this.live('voice', ctx, id, refresh, (ref) => this.carrier.voiceMargin(ref));
  }

  whitelist(ctx: AuthContext, id: number, refresh: boolean) {
    return this.live('whitelist', ctx, id, refresh, async (ref) => ({ ...(await this.carrier.voiceWhitelist(ref)), max: this.carrier.whitelistMax }));
  }

  /**
   * Adds or deletes a whitelist number at the carrier. The console's limit is checked first
   * (the carrier's own refusal is passed on with its code and message); logged either way.
   */
  async configWhitelist(actor: Actor, body: EndpointParsedBody<typeof cardApi.configWhitelist>) {
    const [card] = await this.manageable(actor, [body.id]);
    const ref = this.refOf(card!);
    try {
      if (body.operation === 'add') {
        const current = await this.carrier.voiceWhitelist(ref);
        if (current.numbers.some((n) => n.whiteNumber === body.whiteNumber)) throw invalid('whiteNumber', 'whitelistHas');
        if (current.totalCount >= this.carrier.whitelistMax) throw invalid('whiteNumber', 'whitelistFull', { max: this.carrier.whitelistMax });
      }
      await this.carrier.configVoiceWhitelist(ref, body.operation, body.whiteNumber);
    } catch (err) {
      if (err instanceof CarrierError) {
        throw refuse(ErrorCode.CONFLICT, 'carrierRefused', { params: { code: err.code, message: err.message }, field: 'whiteNumber' });
      }
      throw err;
    } finally {
      this.cache.delete(`whitelist:${body.id}`);
    }
    await this.db.transaction((tx) =>
      audit(tx, actor, { entityId: body.id, name: card!.iccid, summary: { operation: body.operation, whiteNumber: body.whiteNumber } }),
    );
    return { ok: true, message: 'ok' };
  }
}

const iccidTaken = (iccid: string) => conflict('iccidTaken', { params: { iccid }, field: 'iccid' });

const iccidRace = (iccid: string) => (err: unknown): never => {
  throw uniqueViolationOf(err) === 'sim_cards_iccid_unique' ? iccidTaken(iccid) : err;
};
