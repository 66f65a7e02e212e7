import {
  alarmRuleProblems,
  isNumericType,
  paramProblems,
  type AlarmRule,
  type AlarmRuleDto,
  type DeviceTypeDto,
  type Param,
  type ParamDto,
} from '@iot/contract';
import type { z } from 'zod';
import type { deviceTypeCreateSchema, deviceTypeEditSchema, deviceTypeListQuerySchema } from '@iot/contract';
import type { Db } from '../../db/client.js';
import type { EventBus } from '../../lib/events.js';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.js';
import { isSuper, scopeOf } from '../../lib/scope.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import * as repo from './devicetype.repo.js';

type TypeFields = z.output<typeof deviceTypeCreateSchema>;
type EditBody = z.output<typeof deviceTypeEditSchema>;
type ListQuery = z.output<typeof deviceTypeListQuerySchema>;
type TypeRow = NonNullable<Awaited<ReturnType<typeof repo.findType>>>;
type ParamRow = Awaited<ReturnType<typeof repo.paramsOf>>[number];

/**
 * Device types with their parameter and alarm definitions. Built-in types are visible to all and
 * edited by the super administrator; others belong to the subtree of the user who created them.
 */
export class DeviceTypeService {
  constructor(
    private readonly db: Db,
    /** Tells the alarm engine when a type's parameters or rules change. */
    private readonly bus?: EventBus,
  ) {}

  private async visible(ctx: AuthContext, id: number) {
    const t = await repo.findType(this.db, id);
    const scope = scopeOf(ctx);
    if (!t || (scope && t.ownerPath !== '/' && !t.ownerPath.startsWith(scope))) throw notFound('deviceTypeNotFound');
    return t;
  }

  private async editable(ctx: AuthContext, id: number) {
    const t = await this.visible(ctx, id);
    if (t.ownerPath === '/' && !isSuper(ctx)) throw forbidden('builtinTypeSuperOnly');
    return t;
  }

  async list(ctx: AuthContext, q: ListQuery) {
    const res = await repo.listTypes(this.db, { ...q, scopePath: scopeOf(ctx) });
    return {
      total: res.total,
      items: res.items.map((t) => ({ ...toDto(t), paramCount: t.paramCount, alarmCount: t.alarmCount })),
    };
  }

  /** Whether the caller may use the type (for devices): built-in or created in its subtree. */
  isVisible(ctx: AuthContext, id: number): Promise<boolean> {
    return repo.typeVisible(this.db, id, scopeOf(ctx));
  }

  options(ctx: AuthContext) {
    return repo.typeOptions(this.db, scopeOf(ctx));
  }

  async item(ctx: AuthContext, id: number): Promise<DeviceTypeDto> {
    const t = await this.visible(ctx, id);
    const [params, alarms] = await Promise.all([repo.paramsOf(this.db, id), repo.alarmsOf(this.db, id)]);
    return { ...toDto(t), paramCount: params.length, alarmCount: alarms.length };
  }

  async create(actor: Actor, body: TypeFields) {
    if (await repo.findTypeByCode(this.db, body.code)) throw conflict('typeCodeTaken', { field: 'code' });
    return this.db.transaction(async (tx) => {
      const id = await repo.insertType(tx, { ...body, ownerPath: actor.path });
      await audit(tx, actor, { entityId: id, name: body.name, summary: body });
      return id;
    });
  }

  /** Changes only the fields sent; a new code must be free, and a built-in type keeps its code. */
  async edit(actor: Actor, body: EditBody) {
    const t = await this.editable(actor, body.id);
    if (body.code !== undefined && body.code !== t.code) {
      if (t.builtin) throw forbidden('builtinTypeCode');
      if (await repo.findTypeByCode(this.db, body.code)) throw conflict('typeCodeTaken', { field: 'code' });
    }
    const { id, ...set } = body;
    await this.db.transaction(async (tx) => {
      await repo.updateType(tx, id, set);
      await audit(tx, actor, { entityId: id, name: t.name, summary: set });
    });
  }

  async remove(actor: Actor, id: number) {
    const t = await this.editable(actor, id);
    if (t.builtin) throw forbidden('builtinTypeDelete');
    const n = await repo.countTypeDevices(this.db, id);
    if (n > 0) throw conflict('typeInUse', { params: { count: n } });
    await this.db.transaction(async (tx) => {
      await repo.deleteType(tx, id);
      await audit(tx, actor, { entityId: id, name: t.name, summary: { code: t.code } });
    });
  }

  async params(ctx: AuthContext, id: number): Promise<ParamDto[]> {
    await this.visible(ctx, id);
    return (await repo.paramsOf(this.db, id)).map(toParamDto);
  }

  /**
   * The parameters of a device's type, for a caller who may see the device (its visibility was
   * checked): a device shared through a project may use a type its viewer does not own.
   */
  async paramsOfDeviceType(typeId: number): Promise<ParamDto[]> {
    return (await repo.paramsOf(this.db, typeId)).map(toParamDto);
  }

  /**
   * Replaces the parameter list (checked as the parameter settings page checks it); refused while
   * alarm rules use a parameter being removed or would no longer fit a changed one.
   */
  async setParams(actor: Actor, id: number, params: Param[]) {
    const t = await this.editable(actor, id);
    const [bad] = paramProblems(params);
    if (bad) throw invalid(`params.${bad.index}.${bad.field}`, bad.reason, bad.params);
    const kept = new Set(params.map((p) => p.semaphoreId));
    const rules = await repo.alarmsOf(this.db, id);
    const orphaned = rules.filter((r) => !kept.has(r.semaphoreId)).map((r) => r.semaphoreId);
    if (orphaned.length > 0) {
      throw conflict('rulesUseRemovedParams', { params: { ids: [...new Set(orphaned)].join(', ') } });
    }
    const [misfit] = alarmRuleProblems(rules.map((r) => toRuleDto(r, numericSems(params))), params);
    if (misfit) throw conflict('ruleNoLongerFits', { params: { id: rules[misfit.index]!.semaphoreId } });
    await this.db.transaction(async (tx) => {
      await repo.replaceParams(tx, id, params);
      await audit(tx, actor, { entityId: id, name: t.name, summary: { params: params.map((p) => p.semaphoreId) } });
    });
    this.bus?.emit('devicetype.changed', { typeId: id });
  }

  async alarms(ctx: AuthContext, id: number): Promise<AlarmRuleDto[]> {
    await this.visible(ctx, id);
    const numeric = numericSems((await repo.paramsOf(this.db, id)).map(toParamDto));
    return (await repo.alarmsOf(this.db, id)).map((r) => toRuleDto(r, numeric));
  }

  async setAlarms(actor: Actor, id: number, rules: AlarmRule[]) {
    const t = await this.editable(actor, id);
    const params = (await repo.paramsOf(this.db, id)).map(toParamDto);
    const [problem] = alarmRuleProblems(rules, params);
    if (problem) throw invalid(`rules.${problem.index}.${problem.field}`, problem.reason, problem.params);
    await this.db.transaction(async (tx) => {
      await repo.replaceAlarms(tx, id, rules);
      await audit(tx, actor, { entityId: id, name: t.name, summary: { rules: rules.length } });
    });
    this.bus?.emit('devicetype.changed', { typeId: id });
  }
}

function toDto(
  t: Pick<TypeRow, 'id' | 'code' | 'name' | 'nameEn' | 'nameEs' | 'nameJa' | 'remarks' | 'recordTrack' | 'builtin' | 'createdAt'>,
) {
  return {
    id: t.id,
    code: t.code,
    name: t.name,
    nameEn: t.nameEn,
    nameEs: t.nameEs,
    nameJa: t.nameJa,
    remarks: t.remarks,
    recordTrack: t.recordTrack,
    builtin: t.builtin,
    createdAt: t.createdAt.toISOString(),
  };
}

function toParamDto(p: ParamRow): ParamDto {
  return {
    id: p.id,
    semaphoreId: p.semaphoreId,
    name: p.name,
    nameEn: p.nameEn,
    nameEs: p.nameEs,
    nameJa: p.nameJa,
    unit: p.unit,
    groupName: p.groupName,
    dataType: p.dataType as ParamDto['dataType'],
    precision: p.precision,
    min: p.min,
    max: p.max,
    enumValues: p.enumValues as ParamDto['enumValues'],
    writable: p.writable,
    sort: p.sort,
  };
}

/** Semaphore ids of numeric parameters: their thresholds read back as numbers. */
function numericSems(params: Pick<ParamDto, 'semaphoreId' | 'dataType'>[]): Set<string> {
  return new Set(params.filter((p) => isNumericType(p.dataType)).map((p) => p.semaphoreId));
}

function toRuleDto(r: Awaited<ReturnType<typeof repo.alarmsOf>>[number], numeric: Set<string>): AlarmRuleDto {
  return {
    id: r.id,
    semaphoreId: r.semaphoreId,
    comparison: r.comparison as AlarmRuleDto['comparison'],
    // Stored as text so enum/text rules keep their value; numeric ones read back as numbers.
    threshold: numeric.has(r.semaphoreId) ? Number(r.threshold) : r.threshold,
    threshold2: r.threshold2,
    level: r.level,
    message: r.message,
    messageEn: r.messageEn,
    messageEs: r.messageEs,
    messageJa: r.messageJa,
    holdSeconds: r.holdSeconds,
    enabled: r.enabled,
  };
}
