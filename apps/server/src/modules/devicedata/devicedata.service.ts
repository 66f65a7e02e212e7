import { ErrorCode, type DeviceLogQuery, type DeviceLogDto, type LatestValue, type Page, type UplinkResult } from '@iot/contract';
import type { Db } from '../../db/client.js';
import type { CommandService } from '../../ingest/commands.js';
import type { IngestService } from '../../ingest/ingest.service.js';
import { withoutValue } from '../../ingest/replies.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { scopeOf } from '../../lib/scope.js';
import type { AuthContext } from '../auth/auth.service.js';
import type { DeviceService } from '../device/device.service.js';
import * as repo from './devicedata.repo.js';

/** Reads of what devices sent (latest values, device log) and the HTTP uplink. */
export class DeviceDataService {
  constructor(
    private readonly db: Db,
    private readonly ingest: IngestService,
    private readonly devices: DeviceService,
    private readonly commands: CommandService,
  ) {}

  /** Undefined: unknown device or wrong secret (the caller answers 60204 either way). */
  async httpUplink(sn: string, secret: string, kind: string, body: unknown): Promise<UplinkResult | undefined> {
    const auth = await this.ingest.authenticate(sn, secret);
    if ('reason' in auth) {
      await this.ingest.refused(sn, auth.reason, { via: 'http' });
      // Told only to a device that knows its secret.
      if (auth.reason === 'deviceDisabled') throw forbidden('deviceDisabled');
      return undefined;
    }
    const outcome = await this.ingest.uplink(auth.device, kind, body as object);
    if (outcome.rejected[0]?.reason === 'rateLimited') {
      throw new AppError(ErrorCode.RATE_LIMITED, 'this device sends too many messages; retry later', { retryAfter: 1 });
    }
    return {
      accepted: outcome.accepted,
      rejected: outcome.rejected.map(withoutValue),
      // A polling device gets what waits for it in the answer.
      commands: await this.commands.takePending(auth.device.id),
      serverTime: Date.now(),
    };
  }

  /**
   * A request of an HTTP device that never reached the uplink handler (a body that is not JSON, of
   * another content type, empty, or refused by the input checks or the body schema), recorded as
   * MQTT records such a message: in the device log (`malformedJson`, `invalidMessage`), counted
   * against the device's rate. `body`: what was parsed, or undefined when the body could not be
   * read as JSON. Unknown credentials are logged as for any uplink; the caller answers the
   * request's own error either way, and no waiting command is handed over.
   */
  async httpRefused(sn: string, secret: string, kind: string, body: unknown): Promise<void> {
    const auth = await this.ingest.authenticate(sn, secret);
    if ('reason' in auth) {
      await this.ingest.refused(sn, auth.reason, { via: 'http' });
      return;
    }
    // Nothing readable is no JSON: handed over as an empty payload, which decodes as malformedJson.
    // JSON that is not an object (null, a string, a number) goes back to its text, so that it
    // decodes as JSON of the wrong shape (invalidMessage).
    const payload =
      body === undefined || Buffer.isBuffer(body) ? '' : typeof body === 'object' && body !== null ? body : JSON.stringify(body);
    await this.ingest.uplink(auth.device, kind, payload);
  }

  async latest(ctx: AuthContext, deviceId: number): Promise<LatestValue[]> {
    await this.devices.basic(ctx, deviceId);
    const rows = await repo.latestValues(this.db, deviceId);
    return rows.map((r) => ({ semaphoreId: r.semaphoreId, value: r.value as LatestValue['value'], ts: r.ts.toISOString() }));
  }

  async logs(ctx: AuthContext, q: DeviceLogQuery): Promise<Page<DeviceLogDto>> {
    const res = await repo.listDeviceLogs(this.db, {
      ...q,
      scope: scopeOf(ctx),
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
    });
    return {
      total: res.total,
      exact: res.exact,
      next: res.next,
      items: res.items.map((r) => ({
        ...r,
        kind: r.kind as DeviceLogDto['kind'],
        detail: (r.detail ?? {}) as Record<string, unknown>,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }
}
