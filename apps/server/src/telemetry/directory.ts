import crypto from 'node:crypto';
import { DEVICE_LIMITS, type IngestReason } from '@iot/contract';
import type { Db } from '../db/client.js';
import { hashToken } from '../lib/tokens.js';
import type { ParamDef } from './decode.js';
import * as repo from './ingest.repo.js';
import type { IngestDevice } from './ingest.repo.js';

const CACHE_MS = 30_000;
/** Devices whose credentials and registry row are remembered (least recently used are dropped). */
const DEVICE_CACHE_MAX = 20_000;
/** A stand-in credential hash, compared for an unknown SN so its refusal costs what a known one's does. */
const NO_DEVICE_HASH = hashToken(crypto.randomBytes(32).toString('hex'));

/**
 * What ingestion knows of the registry: devices by SN and their credentials, their types'
 * parameter definitions and alarm ids (cached briefly; the registry is the authority), and the
 * devices disabled or deleted since they connected.
 */
export class DeviceDirectory {
  /** SN → device, in least-recently-used order (a Map keeps insertion order). */
  private readonly devices = new Map<string, { device: IngestDevice | undefined; at: number }>();
  private readonly params = new Map<number, { defs: Map<string, ParamDef>; at: number }>();
  private readonly alarmIds = new Map<number, { ids: Set<string>; at: number }>();
  /** Devices disabled or deleted since they connected: their messages are refused. */
  private readonly revoked = new Map<number, 'deviceDisabled' | 'unknownDevice'>();

  constructor(private readonly db: Db) {}

  /** Checks a device's credentials (MQTT CONNECT, HTTP Basic). */
  async authenticate(sn: string, secret: string): Promise<{ device: IngestDevice } | { reason: IngestReason }> {
    // An unknown SN and a wrong secret cost the same: one registry read (cached alike) and one
    // hash comparison, so the time of a refusal does not tell which SNs exist.
    const device = await this.deviceOf(sn, { fresh: true });
    const given = Buffer.from(hashToken(secret));
    const stored = Buffer.from(device?.credentialHash ?? NO_DEVICE_HASH);
    const match = given.length === stored.length && crypto.timingSafeEqual(given, stored);
    if (!device) return { reason: 'unknownDevice' };
    if (!match) return { reason: 'badCredentials' };
    // Told only to a device that knows its secret.
    if (!device.enabled) return { reason: 'deviceDisabled' };
    this.revoked.delete(device.id);
    return { device };
  }

  /**
   * The device behind an SN. At most DEVICE_CACHE_MAX SNs are remembered, unknown ones included,
   * so a flood of made-up names cannot grow memory; an SN longer than any SN can be is unknown
   * without a query.
   */
  async deviceOf(sn: string, opts: { fresh?: boolean } = {}): Promise<IngestDevice | undefined> {
    const now = Date.now();
    const hit = this.devices.get(sn);
    if (hit && !opts.fresh && now - hit.at < CACHE_MS) {
      // Most recently used last.
      this.devices.delete(sn);
      this.devices.set(sn, hit);
      return hit.device;
    }
    // No SN holds a NUL byte (PostgreSQL text cannot) or is longer than the column.
    if (sn.includes('\u0000') || sn.length > DEVICE_LIMITS.sn) return undefined;
    const device = await repo.deviceBySn(this.db, sn);
    this.devices.delete(sn);
    this.devices.set(sn, { device, at: now });
    if (this.devices.size > DEVICE_CACHE_MAX) this.devices.delete(this.devices.keys().next().value!);
    return device;
  }

  /** Why a device's messages are refused now (disabled or deleted since it connected), if they are. */
  revokedReason(device: IngestDevice): 'deviceDisabled' | 'unknownDevice' | undefined {
    return device.enabled ? this.revoked.get(device.id) : 'deviceDisabled';
  }

  /** A sub-device is refused while it is disabled or revoked. */
  isUsable(device: IngestDevice): boolean {
    return device.enabled && !this.revoked.has(device.id);
  }

  /** The registry changed a device's access (`device.access` on the event bus). */
  accessChanged(deviceIds: number[], sns: string[], why: string): void {
    for (const sn of sns) this.devices.delete(sn);
    for (const id of deviceIds) {
      if (why === 'enabled') this.revoked.delete(id);
      else if (why !== 'credentials') this.revoked.set(id, why === 'deleted' ? 'unknownDevice' : 'deviceDisabled');
    }
  }

  /** The type's parameter definitions by semaphore id. */
  async defsOf(typeId: number): Promise<Map<string, ParamDef>> {
    const hit = this.params.get(typeId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.defs;
    const defs = new Map((await repo.typeParams(this.db, typeId)).map((p) => [p.semaphoreId, p]));
    this.params.set(typeId, { defs, at: Date.now() });
    return defs;
  }

  /** The semaphore ids the type's alarm rules are about (enabled or not). */
  async alarmIdsOf(typeId: number): Promise<Set<string>> {
    const hit = this.alarmIds.get(typeId);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.ids;
    const ids = new Set(await repo.typeAlarmIds(this.db, typeId));
    this.alarmIds.set(typeId, { ids, at: Date.now() });
    return ids;
  }

  /** Forget cached definitions (a type's parameters or a device changed). */
  invalidate(): void {
    this.devices.clear();
    this.params.clear();
    this.alarmIds.clear();
  }
}
