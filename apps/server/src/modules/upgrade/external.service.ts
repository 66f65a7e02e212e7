import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  EXTERNAL_OPEN_STATES,
  type EndpointParsedBody,
  type EndpointParsedQuery,
  type ExternalAdded,
  type ExternalCheckinAnswer,
  type ExternalDeviceDto,
  type ExternalEvent,
  type ExternalLogDto,
  type ExternalState,
  type ExternalVersionOption,
  type Page,
  type externalApi,
} from '@iot/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import { conflict, notFound } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import { hashToken } from '../../lib/tokens.js';
import { audit, type Actor } from '../audit/audit.service.js';
import type { AuthContext } from '../auth/auth.service.js';
import { firmwareDir, type FirmwareFile } from './firmware.serve.js';
import * as repo from './external.repo.js';

type ListQuery = EndpointParsedQuery<typeof externalApi.list>;
type LogQuery = EndpointParsedQuery<typeof externalApi.logs>;
type CheckinBody = EndpointParsedBody<typeof externalApi.checkin>;

/** A stand-in credential hash, compared for an unknown identifier so its refusal costs what a known one's does. */
const NO_DEVICE_HASH = hashToken(crypto.randomBytes(32).toString('hex'));
/** Identifiers a refusal names before "…": enough to find them in a pasted list. */
const NAMED_MAX = 20;
const VERSION_OPTIONS_MAX = 500;

const isOpen = (state: string) => EXTERNAL_OPEN_STATES.includes(state as ExternalState);
const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** The operation log's entity id (64 characters): the ids that fit, "…" for the rest (the summary counts them). */
function entityIds(ids: number[]): string {
  let out = '';
  for (const id of ids) {
    const next = out ? `${out},${id}` : String(id);
    if (next.length > 62) return `${out},…`;
    out = next;
  }
  return out;
}
const named = (list: string[]) => (list.length > NAMED_MAX ? `${list.slice(0, NAMED_MAX).join(', ')}, …` : list.join(', '));

function toDto(d: repo.ExternalDeviceRow): ExternalDeviceDto {
  return {
    id: d.id,
    identifier: d.identifier,
    name: d.name,
    model: d.model,
    version: d.version,
    lastCheckinAt: iso(d.lastCheckinAt),
    lastAddress: d.lastAddress,
    versionId: d.versionId,
    versionName: d.versionName,
    targetVersion: d.targetVersion,
    state: d.state as ExternalState,
    progress: d.progress,
    reason: d.reason,
    assignedAt: iso(d.assignedAt),
    deadline: iso(d.deadline),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

function toLogDto(l: repo.ExternalLogRow & { identifier: string }): ExternalLogDto {
  return {
    id: l.id,
    deviceId: l.deviceId,
    identifier: l.identifier,
    at: l.at.toISOString(),
    event: l.event as ExternalEvent,
    version: l.version,
    versionId: l.versionId,
    progress: l.progress,
    message: l.message,
    address: l.address,
  };
}

/**
 * External devices (§7 Hardware, /external/*; docs/PROTOCOL.md "External devices"): a registry
 * of devices outside the console's that check in over HTTP, their firmware assignments and their
 * log. Operators see and change the devices of their subtree. An assignment never stays open:
 * without progress or a result before its deadline it fails "timed out", found by a timer and
 * before every list and check-in.
 */
export class ExternalService {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: { dataDir: string; consoleUrl?: string; sweepMs?: number },
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      void repo.expireDue(this.db).catch((err: unknown) => this.log.error({ err }, 'external upgrade timeout sweep failed'));
    }, this.opts.sweepMs ?? 30_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Ends what timed out; the timer does the same, this makes a list exact at once. */
  expire(): Promise<number> {
    return repo.expireDue(this.db);
  }

  async add(actor: Actor, body: EndpointParsedBody<typeof externalApi.add>): Promise<ExternalAdded> {
    const identifiers = body.devices.map((d) => d.identifier);
    const twice = [...new Set(identifiers.filter((id, i) => identifiers.indexOf(id) !== i))];
    const taken = [...new Set([...twice, ...(await repo.existingIdentifiers(this.db, identifiers))])];
    if (taken.length > 0) throw conflict('externalDuplicate', { params: { identifiers: named(taken) }, field: 'devices' });
    const secrets = new Map(identifiers.map((id) => [id, crypto.randomBytes(24).toString('base64url')]));
    const added = await this.db.transaction(async (tx) => {
      const rows = await repo.insertDevices(
        tx,
        body.devices.map((d) => ({ ...d, credentialHash: hashToken(secrets.get(d.identifier)!) })),
        { ownerPath: actor.path, createdBy: actor.userId },
      );
      await audit(tx, actor, {
        entityId: rows.length === 1 ? rows[0]!.id : '',
        name: named(identifiers),
        summary: { count: rows.length },
      });
      return rows;
    });
    return { items: added.map((r) => ({ id: r.id, identifier: r.identifier, secret: secrets.get(r.identifier)! })) };
  }

  async list(ctx: AuthContext, q: ListQuery, assignedOnly = false): Promise<Page<ExternalDeviceDto>> {
    await this.expire();
    const page = await repo.listDevices(this.db, { ...q, scopePath: scopeOf(ctx), assignedOnly });
    return { ...page, items: page.items.map(toDto) };
  }

  async logs(ctx: AuthContext, q: LogQuery, upgradeOnly = false): Promise<Page<ExternalLogDto>> {
    await this.expire();
    if (q.deviceId) await this.visible(ctx, [q.deviceId]);
    const page = await repo.listLogs(this.db, { ...q, scopePath: scopeOf(ctx), upgradeOnly });
    return { ...page, items: page.items.map(toLogDto) };
  }

  /** These devices, each seen by the caller; one it cannot see does not exist. */
  private async visible(ctx: AuthContext, ids: number[]): Promise<repo.ExternalDeviceRow[]> {
    const unique = [...new Set(ids)];
    const found = await repo.devicesByIds(this.db, unique, scopeOf(ctx));
    const missing = unique.filter((id) => !found.some((d) => d.id === id));
    if (missing.length > 0) throw notFound('externalDevicesNotFound', { ids: missing.join(', ') });
    return found;
  }

  async remove(actor: Actor, ids: number[]): Promise<{ count: number }> {
    const devices = await this.visible(actor, ids);
    return this.db.transaction(async (tx) => {
      const count = await repo.deleteDevices(tx, devices.map((d) => d.id));
      await audit(tx, actor, { entityId: entityIds(ids), name: named(devices.map((d) => d.identifier)), summary: { count } });
      return { count };
    });
  }

  async removeLogs(actor: Actor, q: EndpointParsedQuery<typeof externalApi.removeLogs>): Promise<{ count: number }> {
    const device = q.deviceId ? (await this.visible(actor, [q.deviceId]))[0] : undefined;
    return this.db.transaction(async (tx) => {
      const count = await repo.deleteLogs(tx, { ...q, scopePath: scopeOf(actor) });
      await audit(tx, actor, { entityId: q.deviceId ?? '', name: device?.identifier ?? '', summary: { before: q.before, count } });
      return { count };
    });
  }

  async assign(actor: Actor, body: EndpointParsedBody<typeof externalApi.assign>): Promise<{ count: number }> {
    const version = await repo.visibleVersion(this.db, body.versionId, scopeOf(actor));
    if (!version) throw notFound('externalVersionNotFound');
    await this.expire();
    const devices = await this.visible(actor, body.ids);
    // A device fetching or installing an image is not switched under it: cancel first.
    const busy = devices.filter((d) => d.state === 'downloading' || d.state === 'installing');
    if (busy.length > 0) throw conflict('externalUpgrading', { params: { identifiers: named(busy.map((d) => d.identifier)) } });
    const count = await repo.assign(this.db, devices, version, { timeoutSec: body.timeoutSec, userName: actor.username });
    await audit(this.db, actor, {
      entityId: version.id,
      name: `${version.name} ${version.softwareVersion}`,
      summary: { devices: devices.map((d) => d.identifier).slice(0, NAMED_MAX), count, timeoutSec: body.timeoutSec },
    });
    return { count };
  }

  async cancel(actor: Actor, ids: number[]): Promise<{ count: number }> {
    const devices = await this.visible(actor, ids);
    const count = await repo.cancel(this.db, devices.map((d) => d.id), actor.username);
    await audit(this.db, actor, { entityId: entityIds(ids), name: named(devices.map((d) => d.identifier)), summary: { count } });
    return { count };
  }

  async versionOptions(ctx: AuthContext): Promise<ExternalVersionOption[]> {
    const versions = await repo.versionOptions(this.db, scopeOf(ctx), VERSION_OPTIONS_MAX);
    return versions.map((v) => ({ id: v.id, name: v.name, softwareVersion: v.softwareVersion, uploaded: v.url === '' }));
  }

  /**
   * The external device of these Basic credentials, or undefined. An unknown identifier and a
   * wrong credential cost the same (one read, one hash comparison), so refusals do not tell which
   * identifiers exist.
   */
  async authenticate(identifier: string, secret: string): Promise<repo.ExternalDeviceRow | undefined> {
    const device = identifier.length <= 64 ? await repo.deviceByIdentifier(this.db, identifier) : undefined;
    const given = Buffer.from(hashToken(secret));
    const stored = Buffer.from(device?.credentialHash ?? NO_DEVICE_HASH);
    const match = given.length === stored.length && crypto.timingSafeEqual(given, stored);
    return device && match ? device : undefined;
  }

  /** Where a device fetches an uploaded image: the console's own route, absolute. */
  private downloadUrl(versionId: number, origin: string): string {
    const base = (this.opts.consoleUrl ?? origin).replace(/\/+$/, '');
    return `${base}/api/v1/hardware/firmware/${versionId}`;
  }

  /**
   * A check-in: records it, moves the assignment on by what the device reports, and answers the
   * upgrade it is to run (null when none is open). Success is the assigned version reported;
   * an error, or another version reported after an ok, is a failure with its reason.
   */
  async checkin(deviceId: number, body: CheckinBody, client: { address: string; origin: string }): Promise<ExternalCheckinAnswer> {
    const upgrade = await this.db.transaction(async (tx) => {
      await repo.expireDue(tx, deviceId);
      const d = await repo.lockDevice(tx, deviceId);
      if (!d) return null;
      const now = new Date();
      const address = client.address.slice(0, 64);
      const message = body.message ?? '';
      const logs: repo.NewLog[] = [
        { deviceId, event: 'checkin', version: body.version, progress: body.progress ?? null, message, address, ownerPath: d.ownerPath, at: now },
      ];
      const set: Partial<repo.ExternalDeviceRow> = { version: body.version, lastCheckinAt: now, lastAddress: address, updatedAt: now };
      const event = (e: ExternalEvent, extra: Partial<repo.NewLog> = {}) =>
        logs.push({ deviceId, event: e, version: d.targetVersion, versionId: d.versionId, address, ownerPath: d.ownerPath, at: now, message: '', ...extra });
      const end = (state: 'succeeded' | 'failed', reason: string) => {
        Object.assign(set, { state, reason, deadline: null, awaitingVersion: false, ...(state === 'succeeded' ? { progress: 100 } : {}) });
        event(state, { message: reason });
      };
      const news = () => ({ deadline: new Date(now.getTime() + d.timeoutSec * 1000) });
      if (isOpen(d.state)) {
        if (body.progress !== undefined) event('progress', { progress: body.progress, message });
        if (body.result) event('result', { message: body.message ? `${body.result}: ${body.message}` : body.result });
        if (d.versionId === null) {
          end('failed', 'the firmware version was deleted');
        } else if (body.result === 'error') {
          end('failed', body.message?.trim() || 'the device reported an error');
        } else if (body.version === d.targetVersion) {
          end('succeeded', '');
        } else if (body.result === 'ok') {
          Object.assign(set, { state: 'installing', progress: 100, awaitingVersion: true, ...news() });
        } else if (d.awaitingVersion) {
          end('failed', `reported version ${body.version || '(none)'} instead of ${d.targetVersion} after installing`);
        } else if (body.progress !== undefined) {
          Object.assign(set, { state: body.progress >= 100 ? 'installing' : 'downloading', progress: body.progress, ...news() });
        }
      }
      await repo.updateDevice(tx, deviceId, set);
      await repo.insertLogs(tx, logs);
      const state = (set.state ?? d.state) as string;
      if (!isOpen(state) || d.versionId === null) return null;
      const version = await repo.versionById(tx, d.versionId);
      if (!version) return null;
      return {
        versionId: version.id,
        softwareVersion: version.softwareVersion,
        url: version.url !== '' ? version.url : this.downloadUrl(version.id, client.origin),
        size: version.size,
        sha256: version.sha256,
      };
    });
    return { upgrade };
  }

  /**
   * The uploaded image of the version assigned to this device, for the download route; the
   * download is logged and counts as news (an assigned device is downloading now).
   */
  async firmware(deviceId: number, versionId: number, client: { address: string; range?: string }): Promise<FirmwareFile> {
    return this.db.transaction(async (tx) => {
      await repo.expireDue(tx, deviceId);
      const d = await repo.lockDevice(tx, deviceId);
      if (!d || d.versionId !== versionId || !isOpen(d.state)) throw notFound('externalNotAssigned');
      const version = await repo.versionById(tx, versionId);
      const abs = version?.fileKey ? path.join(firmwareDir(this.opts.dataDir), path.basename(version.fileKey)) : undefined;
      if (!version || !abs || version.size === null || version.sha256 === null || !fs.existsSync(abs)) throw notFound('externalNotAssigned');
      const now = new Date();
      await repo.updateDevice(tx, deviceId, {
        ...(d.state === 'assigned' ? { state: 'downloading' } : {}),
        deadline: new Date(now.getTime() + d.timeoutSec * 1000),
        updatedAt: now,
      });
      await repo.insertLogs(tx, [
        {
          deviceId,
          event: 'download',
          version: version.softwareVersion,
          versionId,
          message: client.range ? client.range.slice(0, 100) : '',
          address: client.address.slice(0, 64),
          ownerPath: d.ownerPath,
          at: now,
        },
      ]);
      return { abs, size: version.size, sha256: version.sha256, fileName: version.fileName ?? `${version.softwareVersion}.bin` };
    });
  }
}
